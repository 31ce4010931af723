/**
 * Paddle Billing's events list: `GET /events`, `order_by=id[ASC]` (Paddle IDs sort by creation),
 * `per_page=200`, `after=<the last event's ID>`, `event_type=<the trigger's Paddle events,
 * comma-separated>`, followed while `meta.pagination.has_more`. Each event is the object Paddle's
 * webhooks deliver (without the delivery's own `notification_id`).
 *
 * A first run (a moment as anchor) walks `order_by=id[DESC]` until an event that occurred before
 * the moment: that event is the anchor. When there is none, the list is read from its start.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { providerOf } from '../../PaymentWebhookTrigger/providers';
import type { Anchor } from '../cursor';
import { checkedOffline, listOf, malformedEvent, objectOf, textOf, urlOf } from '../source';
import type { EventSource, ListedEvent, Page, ReadRun } from '../source';

/** The hosts of the credential's Environment values (credentials/PaymentProviderApi.credentials.ts). */
export const PADDLE_HOSTS: Readonly<Record<string, string>> = {
	live: 'https://api.paddle.com',
	sandbox: 'https://sandbox-api.paddle.com',
};
/** The marker a key of each Environment starts with (pdl_live_apikey_…, pdl_sdbx_apikey_…). */
export const PADDLE_KEY_MARKERS: Readonly<Record<string, string>> = {
	live: 'pdl_live_',
	sandbox: 'pdl_sdbx_',
};
const ENVIRONMENT_LABELS: Readonly<Record<string, string>> = { live: 'Live', sandbox: 'Sandbox' };
export const PADDLE_PAGE_SIZE = 200;
const NAME = 'Paddle Billing';

/** The event types asked for: the trigger's Paddle events, in its registry's order. */
export const PADDLE_EVENT_TYPES: readonly string[] = Object.keys(providerOf('paddle').events);

function listedEvent(run: ReadRun, value: unknown): ListedEvent {
	const event = objectOf(value);
	const id = event?.event_id;
	const type = event?.event_type;
	const occurredAt = typeof event?.occurred_at === 'string' ? Date.parse(event.occurred_at) : NaN;
	if (event === null || typeof id !== 'string' || id === '') {
		throw malformedEvent(run, NAME, 'an event_id');
	}
	if (typeof type !== 'string' || type === '') {
		throw malformedEvent(run, NAME, `an event_type (${id})`);
	}
	if (!Number.isFinite(occurredAt)) throw malformedEvent(run, NAME, `an occurred_at time (${id})`);
	return {
		id,
		timeMs: occurredAt,
		eventType: type,
		body: event,
		signedAt: Math.floor(occurredAt / 1000),
	};
}

async function list(run: ReadRun, order: 'ASC' | 'DESC', after: string | null) {
	const answer = await run.send({
		method: 'GET',
		url: urlOf(run.baseUrl, '/events', [
			['order_by', `id[${order}]`],
			['per_page', String(PADDLE_PAGE_SIZE)],
			...(after === null ? [] : [['after', after] as [string, string]]),
			['event_type', PADDLE_EVENT_TYPES.join(',')],
		]),
	});
	const events = listOf(run, answer, 'data', NAME).map((value) => listedEvent(run, value));
	const pagination = objectOf(objectOf((answer as IDataObject).meta)?.pagination);
	return { events, hasMore: pagination?.has_more === true && events.length > 0 };
}

/** The pages after the event `after` (from the start when null), oldest first. */
async function* forward(run: ReadRun, after: string | null): AsyncGenerator<Page, void, undefined> {
	let cursor = after;
	for (;;) {
		const page = await list(run, 'ASC', cursor);
		yield { events: page.events, more: page.hasMore };
		if (!page.hasMore) return;
		cursor = page.events[page.events.length - 1].id;
	}
}

/** The newest event that occurred before `timeMs`, walking back one page at a time; or null. */
async function newestBefore(run: ReadRun, timeMs: number): Promise<ListedEvent | null> {
	let after: string | null = null;
	for (;;) {
		const page = await list(run, 'DESC', after);
		const found = page.events.find((event) => event.timeMs < timeMs);
		if (found !== undefined) return found;
		if (!page.hasMore) return null;
		after = page.events[page.events.length - 1].id;
	}
}

async function open(run: ReadRun) {
	const { anchor } = run;
	if (anchor.id !== '') return { start: anchor, pages: forward(run, anchor.id) };
	const found = await newestBefore(run, anchor.timeMs);
	if (found === null) return { start: anchor, pages: forward(run, null) };
	const start: Anchor = { timeMs: found.timeMs, id: found.id };
	return { start, pages: forward(run, found.id) };
}

export function paddleHostOf(credentials: ICredentialDataDecryptedObject): string {
	return credentials.environment === 'sandbox' ? PADDLE_HOSTS.sandbox : PADDLE_HOSTS.live;
}

/**
 * The credential test: the API Key a Paddle key (pdl_…) and, when it names its environment
 * (pdl_live_… or pdl_sdbx_…), the credential's Environment that one.
 */
export const paddleKeyCheck: EventSource['checkKey'] = (credentials) => {
	const key = textOf(credentials.apiKey);
	if (key === '') return { status: 'Error', message: 'Set API Key' };
	if (!key.startsWith('pdl_')) {
		return {
			status: 'Error',
			message:
				'The API Key is not a Paddle API key (pdl_live_apikey_… or pdl_sdbx_apikey_…): create one under Paddle → Developer Tools → Authentication',
		};
	}
	const environment = credentials.environment === 'sandbox' ? 'sandbox' : 'live';
	const keyEnvironment = Object.keys(PADDLE_KEY_MARKERS).find((name) =>
		key.startsWith(PADDLE_KEY_MARKERS[name]),
	);
	if (keyEnvironment !== undefined && keyEnvironment !== environment) {
		const [is, set] = [ENVIRONMENT_LABELS[keyEnvironment], ENVIRONMENT_LABELS[environment]];
		return {
			status: 'Error',
			message: `The API Key is a ${is} key (${PADDLE_KEY_MARKERS[keyEnvironment]}…), but Environment is ${set}: set Environment to ${is}, or use a ${set} key`,
		};
	}
	return checkedOffline(
		`The API Key looks like a Paddle ${ENVIRONMENT_LABELS[environment]} key`,
		NAME,
	);
};

export const paddleEvents: EventSource = {
	id: 'paddle',
	name: NAME,
	checkKey: paddleKeyCheck,
	baseUrl: paddleHostOf,
	open,
};
