/**
 * The item the Payment Webhook Trigger makes of a verified delivery (nodes/PaymentWebhookTrigger/
 * events.ts), for the unit tests of what events say: signed at SIGNED_AT (nothing where the
 * provider signs no timestamp), with the signed message ID MESSAGE_ID, unless `facts` says else.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	DEFAULT_USER_ID_METADATA_KEY,
	eventTypeOf,
	paymentEventItem,
	type DeliveryFacts,
} from '../../nodes/PaymentWebhookTrigger/events';
import type { Provider } from '../../nodes/PaymentWebhookTrigger/providers';
import { SIGNS_NO_TIMESTAMP } from '../payment/paymentSignatures';

export const SIGNED_AT = 1_764_000_000;
/** The signed message ID every delivery carries; providers that sign none ignore it. */
export const MESSAGE_ID = 'msg_unit_1';

export function itemOf(provider: Provider, body: IDataObject, facts: Partial<DeliveryFacts> = {}) {
	const eventType = eventTypeOf(provider, body);
	if (eventType === null) throw new Error('the sample names no event type');
	return paymentEventItem(provider, eventType, body, {
		signedAt: SIGNS_NO_TIMESTAMP.includes(provider) ? null : SIGNED_AT,
		messageId: MESSAGE_ID,
		userIdMetadataKey: DEFAULT_USER_ID_METADATA_KEY,
		...facts,
	});
}

/** `body` with `patch` spread into the object found at `path` (a sample changed in one place). */
export function patchedAt(
	body: IDataObject,
	[key, ...path]: string[],
	patch: IDataObject,
): IDataObject {
	const inner = body[key] as IDataObject;
	return { ...body, [key]: path.length ? patchedAt(inner, path, patch) : { ...inner, ...patch } };
}
