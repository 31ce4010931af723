/**
 * The Payment Provider Events node on the package's fake context (support/fakes/fakeContext.ts),
 * its requests sent over real HTTP to the provider APIs emulator (sandbox/providerApis/), each
 * authenticated by the Payment Provider API credential as n8n's helper authenticates it. Also the
 * events the tests record there, and the Payment Webhook Trigger's item for the same event.
 */
import { generateKeyPairSync } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';

import { PaymentProviderApi } from '../../credentials/PaymentProviderApi.credentials';
import { PaymentProviderEvents } from '../../nodes/PaymentProviderEvents/PaymentProviderEvents.node';
import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import { ProviderApis } from '../../sandbox';
import { fakeContext, type Responder } from '../../support/fakes/fakeContext';
import { fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';
import {
	credentialDataOf,
	nodeParametersOf,
	sampleEvent,
	signDelivery,
	TEST_SIGNING_SECRETS,
} from '../../support/payment/paymentSignatures';
import { providerOf } from '../../nodes/PaymentWebhookTrigger/providers';

export type EventsProvider = 'stripe' | 'paddle' | 'appStore';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

const appStoreKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

/** The Payment Provider API credentials the emulator accepts (test values, never a provider's). */
export const CREDENTIALS: Record<EventsProvider, ICredentialDataDecryptedObject> = {
	stripe: { provider: 'stripe', secretKey: 'rk_test_dummy_reconciliation_unit' },
	paddle: {
		provider: 'paddle',
		apiKey: 'pdl_sdbx_apikey_dummy_reconciliation',
		environment: 'sandbox',
	},
	appStore: {
		provider: 'appStore',
		issuerId: '57246542-96fe-1a63-e053-0824d011072a',
		keyId: '2X9R4HXF34',
		privateKey: appStoreKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
		bundleId: 'com.example.affiliate',
		rootCa: '',
	},
};

export const apis = new ProviderApis({
	stripeSecretKey: String(CREDENTIALS.stripe.secretKey),
	paddleApiKey: String(CREDENTIALS.paddle.apiKey),
	appStore: {
		issuerId: String(CREDENTIALS.appStore.issuerId),
		keyId: String(CREDENTIALS.appStore.keyId),
		publicKeyPem: appStoreKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
		bundleId: String(CREDENTIALS.appStore.bundleId),
	},
});

/** Starts the emulator for the file's tests and empties it before each. */
export function useProviderApis(): void {
	beforeAll(async () => await apis.start());
	afterAll(async () => await apis.stop());
	beforeEach(() => apis.reset());
}

const CREDENTIAL_TYPE = new PaymentProviderApi();

/** Sends as n8n's helper does with returnFullResponse and ignoreHttpStatusErrors. */
export function overHttp(credentials: ICredentialDataDecryptedObject): Responder {
	return async (options) => {
		if (options.returnFullResponse !== true || options.ignoreHttpStatusErrors !== true) {
			throw new Error('the node must ask for the full response and handle statuses itself');
		}
		const request = await CREDENTIAL_TYPE.authenticate(credentials, options);
		const hasBody = request.body !== undefined;
		const response = await fetch(request.url, {
			method: request.method ?? 'GET',
			headers: {
				...(request.headers as Record<string, string>),
				...(hasBody ? { 'Content-Type': 'application/json' } : {}),
			},
			...(hasBody ? { body: JSON.stringify(request.body) } : {}),
		});
		const text = await response.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// Not JSON: handed on as text, as n8n's helper does.
		}
		return {
			statusCode: response.status,
			headers: Object.fromEntries(response.headers),
			body,
		} as IN8nHttpFullResponse;
	};
}

export interface RunOptions {
	/** Over the defaults; per input item when a function. */
	parameters?: IDataObject | ((itemIndex: number) => IDataObject);
	credentials?: ICredentialDataDecryptedObject;
	/** The answers, instead of the emulator over HTTP. */
	respond?: Responder;
	items?: number;
	onError?: INode['onError'];
}

/** Runs the node once for `provider`, its API Base URL the emulator's unless the parameters say. */
export async function runNode(provider: EventsProvider, options: RunOptions = {}) {
	const credentials = options.credentials ?? CREDENTIALS[provider];
	const defaults: IDataObject = {
		provider,
		cursor: '',
		firstRunDays: 3,
		overlapMinutes: 0,
		maxEvents: 1000,
		...(provider === 'appStore' ? { environment: 'Sandbox' } : {}),
		options: { apiBaseUrl: apis.baseUrls[provider] },
	};
	const given = options.parameters;
	const fake = fakeContext({
		parameters: (itemIndex) => ({
			...defaults,
			...(typeof given === 'function' ? given(itemIndex) : given),
		}),
		credentials,
		items: options.items,
		onError: options.onError,
		respond: options.respond ?? overHttp(credentials),
	});
	const output: INodeExecutionData[][] = await new PaymentProviderEvents().execute.call(
		fake.context,
	);
	return { output, items: output[0].map(({ json }) => json), requests: fake.requests };
}

/** The request's query, for assertions on the pages asked for. */
export const queryOf = (request: IHttpRequestOptions) =>
	Object.fromEntries(new URL(request.url).searchParams);

/** An item without its cursor: what the trigger makes of the event. */
export function withoutCursor(item: IDataObject): IDataObject {
	const copy = { ...item };
	delete copy.cursor;
	return copy;
}

/**
 * `count` events of `provider`, purchases and refunds in turn (transaction `pi_<n>` each), the
 * first at `firstMs`, `stepMs` apart, IDs `<prefix><n>` sorting as time.
 */
export function paymentEvents(
	provider: 'stripe' | 'paddle',
	count: number,
	firstMs: number,
	{ stepMs = MINUTE, prefix = 'evt_' }: { stepMs?: number; prefix?: string } = {},
): IDataObject[] {
	return Array.from({ length: count }, (_, index) => {
		const kind = index % 2 === 0 ? 'purchase' : 'refund';
		const n = String(index).padStart(5, '0');
		const event = sampleEvent(provider, kind, {
			transactionId: `pi_${prefix}${Math.floor(index / 2)}`,
			eventId: `${prefix}${n}`,
			userId: `user_${index}`,
		}) as IDataObject;
		const atMs = firstMs + index * stepMs;
		if (provider === 'stripe') return { ...event, created: Math.floor(atMs / 1000) };
		// The list holds the event without the delivery's own notification_id.
		const listed: IDataObject = { ...event, occurred_at: new Date(atMs).toISOString() };
		delete listed.notification_id;
		return listed;
	});
}

/**
 * A provider's history for a first run (3 days back): `before` events ahead of its start, `after`
 * ones behind it (each its own prefix), and `others(now)`, all recorded; the first two returned.
 */
export function recordHistory(
	provider: 'stripe' | 'paddle',
	counts: { before: number; after: number },
	prefixes: { before: string; after: string },
	others: (now: number) => IDataObject[],
) {
	const now = Date.now();
	const before = paymentEvents(provider, counts.before, now - 5 * DAY, { prefix: prefixes.before });
	const after = paymentEvents(provider, counts.after, now - 2 * DAY, { prefix: prefixes.after });
	record(provider, [...before, ...after, ...others(now)]);
	return { before, after };
}

/** An event the trigger does not read (Stripe's customer.created), at `atMs`. */
export const stripeCustomerEvent = (id: string, atMs: number): IDataObject => ({
	id,
	object: 'event',
	type: 'customer.created',
	created: Math.floor(atMs / 1000),
	data: { object: { id: `cus_${id}` } },
});

export function record(provider: EventsProvider, events: readonly object[]): void {
	for (const event of events) apis.record(provider, event);
}

/** The items the Payment Webhook Trigger makes of `events`, one delivery at a time. */
export async function triggerItems(provider: 'stripe' | 'paddle', events: IDataObject[]) {
	const items: unknown[] = [];
	// One after the other: each delivery sets the clock to its own signing time.
	for (const event of events) items.push(await triggerItem(provider, event));
	return items;
}

/** The item the Payment Webhook Trigger makes of `event` delivered signed at the event's time. */
export async function triggerItem(provider: 'stripe' | 'paddle', event: IDataObject) {
	const signedAt =
		provider === 'stripe'
			? Number(event.created)
			: Math.floor(Date.parse(String(event.occurred_at)) / 1000);
	const rawBody = JSON.stringify(event);
	const secret = TEST_SIGNING_SECRETS[provider];
	const now = jest.spyOn(Date, 'now').mockReturnValue(signedAt * 1000);
	try {
		const fake = fakeWebhookContext({
			rawBody,
			secret,
			credential: credentialDataOf(provider),
			headers: signDelivery(provider, rawBody, secret, { timestamp: signedAt }),
			parameters: {
				...nodeParametersOf(provider),
				provider,
				events: Object.keys(providerOf(provider).events),
				responseMode: 'onReceived',
				options: {},
			},
		});
		const result = await new PaymentWebhookTrigger().webhook.call(fake.context);
		return result.workflowData?.[0][0].json;
	} finally {
		now.mockRestore();
	}
}

/**
 * A first run's cursors over events a minute apart, with 10 minutes of overlap: the first ten
 * items' cursor is the run's start anchor, each later one's the event ten before it.
 */
export function expectFirstRunCursors(
	items: IDataObject[],
	startAnchor: string,
	afterCursors: string[],
): void {
	expect(items.slice(0, 10).map((item) => item.cursor)).toEqual(Array(10).fill(startAnchor));
	expect(items.slice(10).map((item) => item.cursor)).toEqual(afterCursors.slice(0, 240));
}
