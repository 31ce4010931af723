/**
 * The providers whose event history the node reads: one module each, by the ID the Payment
 * Webhook Trigger's items name. A provider here must also be in the trigger's registry (its items
 * are the trigger's).
 */
import type { ICredentialDataDecryptedObject, INodeCredentialTestResult } from 'n8n-workflow';

import type { EventSource } from '../source';
import { appStoreEvents } from './appStore';
import { paddleEvents } from './paddle';
import { stripeEvents } from './stripe';

export const EVENT_SOURCES = {
	stripe: stripeEvents,
	paddle: paddleEvents,
	appStore: appStoreEvents,
} as const satisfies Record<EventSource['id'], EventSource>;

export type EventsProvider = keyof typeof EVENT_SOURCES;

export function isEventsProvider(id: string): id is EventsProvider {
	return Object.prototype.hasOwnProperty.call(EVENT_SOURCES, id);
}

/**
 * The provider a Payment Provider API credential holds a key of: its Provider field, as given
 * (checked by the callers); Stripe, the field's default, when unset (n8n fills in defaults so).
 */
export function credentialProviderOf(credentials: ICredentialDataDecryptedObject): string {
	const { provider } = credentials;
	return provider === undefined || provider === null || provider === ''
		? 'stripe'
		: String(provider);
}

/** The node's credential test: the provider's own offline check of its fields. */
export function checkCredential(
	credentials: ICredentialDataDecryptedObject,
): INodeCredentialTestResult {
	const provider = credentialProviderOf(credentials);
	if (!isEventsProvider(provider)) {
		return {
			status: 'Error',
			message: `Provider must be one of ${Object.keys(EVENT_SOURCES).join(', ')} (got ${JSON.stringify(provider)})`,
		};
	}
	return EVENT_SOURCES[provider].checkKey(credentials);
}
