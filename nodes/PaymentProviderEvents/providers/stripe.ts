/**
 * Stripe's Events API: `GET /v1/events`, newest first, `limit` at most 100, cursors
 * `starting_after` (older) and `ending_before` (newer), filtered by `types[]`: the purchase and
 * refund events the Payment Webhook Trigger's Stripe module reads. Stripe keeps events 30 days.
 *
 * Forward from an anchor event: `ending_before=<anchor>` gives the events just newer than it,
 * newest first; the page is reversed and emitted, and its newest is the next anchor, while
 * `has_more`. A first run (a moment as anchor): the newest event before it (`created[lt]`,
 * limit 1) is the anchor; when there is none, every event kept is newer, so the list is walked
 * back with `starting_after` to its oldest page (only the current page is held) and read forward
 * from there.
 */
import type { IDataObject } from 'n8n-workflow';

import { providerOf } from '../../PaymentWebhookTrigger/providers';
import type { Anchor } from '../cursor';
import { checkedOffline, listOf, malformedEvent, objectOf, textOf, urlOf } from '../source';
import type { EventSource, ListedEvent, Page, ReadRun } from '../source';

export const STRIPE_HOST = 'https://api.stripe.com';
export const STRIPE_PAGE_SIZE = 100;
const NAME = 'Stripe';

/** The event types asked for: the trigger's Stripe events, in its registry's order. */
export const STRIPE_EVENT_TYPES: readonly string[] = Object.keys(providerOf('stripe').events);

interface StripeList {
	events: ListedEvent[];
	hasMore: boolean;
}

function listedEvent(run: ReadRun, value: unknown): ListedEvent {
	const event = objectOf(value);
	const id = event?.id;
	const type = event?.type;
	const created = event?.created;
	if (event === null || typeof id !== 'string' || id === '')
		throw malformedEvent(run, NAME, 'an id');
	if (typeof type !== 'string' || type === '') throw malformedEvent(run, NAME, `a type (${id})`);
	if (typeof created !== 'number' || !Number.isFinite(created)) {
		throw malformedEvent(run, NAME, `a created time (${id})`);
	}
	return { id, timeMs: created * 1000, eventType: type, body: event, signedAt: created };
}

/** One page of the list, newest first as Stripe gives it. */
async function list(run: ReadRun, query: Array<[string, string]>): Promise<StripeList> {
	const answer = await run.send({
		method: 'GET',
		url: urlOf(run.baseUrl, '/v1/events', [
			...query,
			...STRIPE_EVENT_TYPES.map((type): [string, string] => ['types[]', type]),
		]),
	});
	const events = listOf(run, answer, 'data', NAME).map((value) => listedEvent(run, value));
	return { events, hasMore: (objectOf(answer) as IDataObject).has_more === true };
}

/** The pages newer than the event `anchorId`, oldest first. */
async function* forward(run: ReadRun, anchorId: string): AsyncGenerator<Page, void, undefined> {
	let anchor = anchorId;
	for (;;) {
		const page = await list(run, [
			['limit', String(STRIPE_PAGE_SIZE)],
			['ending_before', anchor],
		]);
		const events = page.events.reverse();
		yield { events, more: page.hasMore && events.length > 0 };
		if (!page.hasMore || events.length === 0) return;
		anchor = events[events.length - 1].id;
	}
}

/** From the oldest event kept: its oldest page (walked back to), then forward from that page. */
async function* fromOldest(run: ReadRun): AsyncGenerator<Page, void, undefined> {
	const size: [string, string] = ['limit', String(STRIPE_PAGE_SIZE)];
	let page = await list(run, [size]);
	let walked = false;
	while (page.hasMore && page.events.length > 0) {
		page = await list(run, [size, ['starting_after', page.events[page.events.length - 1].id]]);
		walked = true;
	}
	const events = page.events.reverse();
	// The first page held everything there was when it was read: nothing is newer to go for.
	yield { events, more: walked };
	if (walked && events.length > 0) yield* forward(run, events[events.length - 1].id);
}

async function open(run: ReadRun) {
	const { anchor } = run;
	if (anchor.id !== '') return { start: anchor, pages: forward(run, anchor.id) };
	// Events strictly older than the moment: created (seconds) * 1000 < timeMs.
	const before = await list(run, [
		['limit', '1'],
		['created[lt]', String(Math.ceil(anchor.timeMs / 1000))],
	]);
	const [newest] = before.events;
	if (newest === undefined) return { start: anchor, pages: fromOldest(run) };
	const start: Anchor = { timeMs: newest.timeMs, id: newest.id };
	return { start, pages: forward(run, newest.id) };
}

const STRIPE_KEY_KINDS: Readonly<Partial<Record<string, string>>> = {
	sk_: 'secret key',
	rk_: 'restricted key',
};

/**
 * The credential test: the Secret Key a secret (sk_…) or restricted (rk_…) key; a publishable
 * key (pk_…) or a webhook signing secret (whsec_…) reads no events.
 */
export const stripeKeyCheck: EventSource['checkKey'] = (credentials) => {
	const key = textOf(credentials.secretKey);
	if (key === '') return { status: 'Error', message: 'Set Secret Key' };
	const kind = STRIPE_KEY_KINDS[key.slice(0, 3)];
	if (kind === undefined) {
		return {
			status: 'Error',
			message:
				'The Secret Key is not a Stripe secret key (sk_…) or restricted key (rk_…): a publishable key (pk_…) or a webhook signing secret (whsec_…) cannot read events',
		};
	}
	const mode = /^[sr]k_live_/.test(key) ? ' live' : /^[sr]k_test_/.test(key) ? ' test' : '';
	return checkedOffline(`The Secret Key is a Stripe${mode} ${kind}`, NAME);
};

export const stripeEvents: EventSource = {
	id: 'stripe',
	name: NAME,
	checkKey: stripeKeyCheck,
	baseUrl: () => STRIPE_HOST,
	open,
};
