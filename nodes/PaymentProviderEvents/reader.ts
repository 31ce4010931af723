/**
 * One run for one input item: the settings, the provider's history after the anchor, page by
 * page (only the current page is held, besides the items), each event made into the Payment
 * Webhook Trigger's item for it, each item given its cursor, at most Max Events of them.
 */
import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
} from 'n8n-workflow';

import { DEFAULT_USER_ID_METADATA_KEY, paymentEventItem } from '../PaymentWebhookTrigger/events';
import { cursorsOf, type Anchor } from './cursor';
import { credentialProviderOf, EVENT_SOURCES, isEventsProvider } from './providers';
import { readSettings } from './settings';
import { PAYMENT_PROVIDER_CREDENTIAL, type EventSource, type ListedEvent } from './source';
import { senderFor } from './transport';

const MINUTE_MS = 60 * 1000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** The item of one event: the trigger's item, as it makes it of the same event. */
function itemOf(
	provider: EventSource['id'],
	event: ListedEvent,
	pinnedRootReplaced: boolean,
): IDataObject {
	const item = paymentEventItem(provider, event.eventType, event.body, {
		signedAt: event.signedAt,
		messageId: null,
		userIdMetadataKey: DEFAULT_USER_ID_METADATA_KEY,
	});
	if (pinnedRootReplaced) item.pinnedRootReplaced = true;
	return item;
}

/**
 * The credential is for the node's Provider, or the error that names both: the one credential
 * type holds any provider's key, and another provider's would be sent to this one's host.
 */
function checkCredentialProvider(
	context: IExecuteFunctions,
	itemIndex: number,
	source: EventSource,
	credentials: ICredentialDataDecryptedObject,
): void {
	const provider = credentialProviderOf(credentials);
	if (provider === source.id) return;
	const holds = isEventsProvider(provider)
		? EVENT_SOURCES[provider].name
		: `an unknown provider (${JSON.stringify(provider.slice(0, 40))})`;
	throw new NodeOperationError(
		context.getNode(),
		`The ${PAYMENT_PROVIDER_CREDENTIAL.displayName} credential is for ${holds}, but Provider is ${source.name}: pick a credential for ${source.name}`,
		{
			description: `Nothing was requested. A ${PAYMENT_PROVIDER_CREDENTIAL.displayName} credential holds one provider's key (its Provider field); pick one made for ${source.name}, or set Provider to the credential's.`,
			itemIndex,
		},
	);
}

/** The items of one run for input item `itemIndex`, oldest first, each with its `cursor`. */
export async function readEvents(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject[]> {
	const settings = readSettings(context, itemIndex);
	const source = EVENT_SOURCES[settings.provider];
	const credentials = await context.getCredentials(PAYMENT_PROVIDER_CREDENTIAL.type, itemIndex);
	checkCredentialProvider(context, itemIndex, source, credentials);
	const nowMs = Date.now();
	const anchor: Anchor = settings.anchor ?? {
		timeMs: nowMs - settings.firstRunDays * DAY_MS,
		id: '',
	};
	const stream = await source.open({
		context,
		itemIndex,
		send: senderFor(context, itemIndex, {
			provider: source.name,
			credentialType: PAYMENT_PROVIDER_CREDENTIAL.type,
			credentialName: PAYMENT_PROVIDER_CREDENTIAL.displayName,
		}),
		baseUrl: settings.apiBaseUrl ?? source.baseUrl(credentials, settings.environment),
		anchor,
		nowMs,
		credentials,
		environment: settings.environment,
	});

	const items: IDataObject[] = [];
	const placed: Anchor[] = [];
	let stoppedAtMax = false;
	reading: for await (const page of stream.pages) {
		for (const [index, event] of page.events.entries()) {
			items.push(itemOf(source.id, event, stream.pinnedRootReplaced === true));
			placed.push({ timeMs: event.timeMs, id: event.id });
			if (items.length >= settings.maxEvents) {
				// Stop without asking for another page: more is left if this page or the list has it.
				stoppedAtMax = index < page.events.length - 1 || page.more;
				break reading;
			}
		}
	}
	const cursors = cursorsOf(
		placed,
		stream.start,
		settings.overlapMinutes * MINUTE_MS,
		stoppedAtMax,
	);
	return items.map((item, index) => ({ ...item, cursor: cursors[index] }));
}
