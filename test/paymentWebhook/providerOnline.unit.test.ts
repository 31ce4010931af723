/**
 * The online parts of the provider interface, through the trigger's answerDelivery, with a module
 * of this test's own: what `fetchForCheck` fetched reaches `verify`, `complete` gives the body the
 * readers get, and a provider that does not answer (its keys, its API) gets the delivery answered
 * 503 with Retry-After, so that it retries, with nothing started.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { answerDelivery } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import {
	objectAt,
	ProviderUnavailableError,
	textAt,
	type PaymentProvider,
} from '../../nodes/PaymentWebhookTrigger/provider';
import { fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';
import { scenario } from '../../support/scenarios';

const KEYS_URL = 'https://keys.example.test/keys';
const API_URL = 'https://api.example.test/orders/';
const API_CREDENTIAL = 'onlineTestApi';

/** Signed by naming a key the provider publishes; completed with the order its API holds. */
const onlineProvider: PaymentProvider<'onlineTest'> = {
	id: 'onlineTest',
	name: 'Online Test',
	signing: 'A published key named in a header',
	signsTimestamp: false,
	secretProblem: () => null,
	fetchForCheck: async (_request, network) => {
		const answer = await network({ method: 'GET', url: KEYS_URL });
		if (answer.status !== 200) {
			throw new ProviderUnavailableError(`the keys answered ${answer.status}`);
		}
		return { keys: answer.body };
	},
	verify: ({ headers, fetched }) => {
		const keys = (fetched?.keys ?? '').split(',');
		return keys.includes(String(headers['x-key']))
			? { valid: true, signedAt: null, messageId: null }
			: { valid: false, reason: 'an unknown key' };
	},
	complete: async (body, { network, api }) => {
		const answer = await network({
			method: 'GET',
			url: `${API_URL}${String(body.orderId)}`,
			headers: { authorization: `Bearer ${api.token}` },
		});
		if (answer.status !== 200)
			throw new ProviderUnavailableError(`the API answered ${answer.status}`);
		return { ...body, order: JSON.parse(answer.body) as unknown };
	},
	apiCredential: API_CREDENTIAL,
	credentialHelp: { field: 'publicKey', text: 'nothing' },
	codexAliases: ['online test'],
	eventType: (body) => textAt(body.type),
	eventId: (body) => textAt(body.id),
	events: {
		paid: {
			kind: 'purchase',
			description: 'Paid',
			fields: (body) => {
				const order = objectAt(body.order);
				return {
					transactionId: textAt(body.orderId),
					amountMinor: Number(order?.cents),
					currency: textAt(order?.currency),
					userId: textAt(order?.user),
				};
			},
		},
	},
};

const SETTINGS = { events: ['paid'], toleranceSeconds: 300, userIdMetadataKey: 'user_id' };
const BODY = JSON.stringify({ id: 'evt_1', type: 'paid', orderId: 'O1' });

interface Answers {
	keys?: number;
	api?: number;
	noAnswer?: boolean;
}

async function deliver(key: string, answers: Answers = {}) {
	const requests: IHttpRequestOptions[] = [];
	const fake = fakeWebhookContext({
		rawBody: BODY,
		secret: '',
		headers: { 'content-type': 'application/json', 'x-key': key },
		parameters: { provider: 'onlineTest', responseMode: 'lastNode' },
		otherCredentials: { [API_CREDENTIAL]: { token: 'api-token-1' } },
		httpRequest: async (options) => {
			requests.push(options);
			if (answers.noAnswer) throw new Error('connect ETIMEDOUT');
			const keys = options.url === KEYS_URL;
			const status = (keys ? answers.keys : answers.api) ?? 200;
			const body = keys ? 'k1,k2' : JSON.stringify({ cents: 1250, currency: 'EUR', user: 'u_9' });
			return { statusCode: status, headers: {}, body: Buffer.from(body) };
		},
	});
	const result = await answerDelivery(fake.context, onlineProvider, SETTINGS);
	return { result, fake, requests };
}

describe(scenario('paymentWebhook.online'), () => {
	it('checks with what it fetched, and reads the item from the completed body', async () => {
		const { result, fake, requests } = await deliver('k2');
		expect(fake.sent).toEqual([]);
		expect(requests.map(({ url }) => url)).toEqual([KEYS_URL, `${API_URL}O1`]);
		expect(requests[1].headers).toMatchObject({ authorization: 'Bearer api-token-1' });
		expect(result.workflowData?.[0][0].json).toMatchObject({
			kind: 'purchase',
			transactionId: 'O1',
			amountMinor: 1250,
			currency: 'EUR',
			userId: 'u_9',
		});
	});

	it('refuses a delivery its fetched keys do not verify, and asks the API nothing', async () => {
		const { result, fake, requests } = await deliver('k3');
		expect(fake.sent).toEqual([{ status: 401, body: { error: 'Invalid webhook signature' } }]);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(requests).toHaveLength(1);
	});

	it.each([
		['its keys answer 500', { keys: 500 }, 'the keys answered 500'],
		['its API answers 502', { api: 502 }, 'the API answered 502'],
		['no answer at all', { noAnswer: true }, 'no answer: connect ETIMEDOUT'],
	] as const)(
		'%s: 503 with Retry-After, nothing started, the reason logged',
		async (_c, answers, why) => {
			const { result, fake } = await deliver('k1', answers);
			expect(fake.sent).toEqual([
				{ status: 503, body: { error: 'Temporarily unavailable: retry later' } },
			]);
			expect(fake.headersSet).toEqual({ 'Retry-After': '30' });
			expect(result).toEqual({ noWebhookResponse: true });
			expect(fake.logged).toHaveLength(1);
			expect(fake.logged[0].message).toContain(why);
			expect(fake.logged[0].message).not.toContain('api-token-1');
		},
	);
});
