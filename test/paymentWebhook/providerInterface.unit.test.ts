/**
 * The provider interface (nodes/PaymentWebhookTrigger/provider.ts), through the trigger's
 * answerDelivery, with a module of this test's own that uses every part the HMAC providers leave
 * out: a form-encoded body, the Public Key, a parameter, a 400 refusal, answers of its own. Then
 * its online parts, with the same module made to fetch and complete: what `fetchForCheck` fetched
 * reaches `verify`, `complete` gives the body the readers get, and a provider that does not answer
 * (its keys, its API) gets the delivery answered 503 with Retry-After, with nothing started.
 */
import { NodeOperationError, type IDataObject, type IHttpRequestOptions } from 'n8n-workflow';

import { answerDelivery } from '../../nodes/PaymentWebhookTrigger/delivery';
import {
	ProviderUnavailableError,
	textAt,
	type PaymentProvider,
} from '../../nodes/PaymentWebhookTrigger/provider';
import { fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';
import { scenario } from '../../support/scenarios';

const PUBLIC_KEY = 'test-public-key';
const APP_ID = 'app_1';

/** Signs by naming the public key in a form field: enough to tell a good delivery from a bad one. */
const formProvider: PaymentProvider = {
	id: 'formTest',
	name: 'Form Test',
	signing: 'Form field sign',
	signsTimestamp: false,
	secretProblem: ({ publicKey }) => (publicKey === '' ? 'The Public Key is empty' : null),
	verify: ({ rawBody, headers, secrets, settings }) => {
		if (headers['x-test'] === 'throw') throw new Error('a fault the module did not foresee');
		const fields = Object.fromEntries(new URLSearchParams(Buffer.from(rawBody).toString('utf8')));
		if (fields.sign !== secrets.publicKey)
			return { valid: false, reason: 'the sign does not verify' };
		if (fields.app_id !== settings.appId) return { valid: false, reason: 'another app' };
		if (fields.trade_status === undefined)
			return { valid: false, reason: 'no trade_status', status: 400 };
		return { valid: true, signedAt: null, messageId: null, body: fields };
	},
	parameters: [
		{
			displayName: 'App ID',
			name: 'appId',
			type: 'string',
			default: '',
			displayOptions: { show: { provider: ['formTest'] } },
		},
	],
	answers: {
		accepted: { status: 200, body: 'success' },
		refused: (status) => ({ status, body: { code: 'FAIL', message: `refused ${status}` } }),
	},
	credentialHelp: { field: 'publicKey', text: 'a test public key' },
	codexAliases: ['form test'],
	eventType: (body) => textAt(body.trade_status),
	eventId: (body) => textAt(body.notify_id),
	events: {
		TRADE_SUCCESS: {
			kind: 'purchase',
			description: 'A trade succeeded',
			fields: (body) => ({
				transactionId: textAt(body.out_trade_no),
				amountMinor: Number(body.total_cents),
				currency: 'CNY',
				userId: textAt(body.passback_params),
			}),
		},
	},
};

const SETTINGS = { events: ['TRADE_SUCCESS'], toleranceSeconds: 300, userIdMetadataKey: 'user_id' };

function form(fields: Record<string, string>): string {
	return new URLSearchParams({
		app_id: APP_ID,
		sign: PUBLIC_KEY,
		notify_id: 'ntf_1',
		out_trade_no: 'T1001',
		total_cents: '8800',
		passback_params: 'user_1001',
		trade_status: 'TRADE_SUCCESS',
		...fields,
	}).toString();
}

async function deliver(
	rawBody: string,
	{
		responseMode = 'onReceived',
		publicKey = PUBLIC_KEY,
		headers = {},
	}: { responseMode?: string; publicKey?: string; headers?: Record<string, string> } = {},
) {
	const fake = fakeWebhookContext({
		rawBody,
		secret: '',
		credential: { publicKey },
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
		parameters: { provider: 'formTest', appId: APP_ID, responseMode },
	});
	const result = await answerDelivery(fake.context, formProvider, SETTINGS);
	return { result, fake };
}

describe(scenario('paymentWebhook.interface'), () => {
	it("starts the workflow on the verified fields and answers the provider's success at once", async () => {
		const { result, fake } = await deliver(form({}));
		expect(fake.sent).toEqual([{ status: 200, body: 'success', contentType: 'text/plain' }]);
		expect(result.noWebhookResponse).toBe(true);
		expect(result.workflowData?.[0]).toHaveLength(1);
		expect(result.workflowData?.[0][0].json).toMatchObject({
			provider: 'formTest',
			eventType: 'TRADE_SUCCESS',
			eventId: 'ntf_1',
			kind: 'purchase',
			transactionId: 'T1001',
			amount: '88.00',
			userId: 'user_1001',
			event: expect.objectContaining({ out_trade_no: 'T1001' }) as IDataObject,
		});
	});

	it('leaves the answer to the workflow when it responds from its last node', async () => {
		const { result, fake } = await deliver(form({}), { responseMode: 'lastNode' });
		expect(fake.sent).toEqual([]);
		expect(result.noWebhookResponse).toBeUndefined();
		expect(result.workflowData?.[0]).toHaveLength(1);
	});

	it('answers success to a verified event not selected, and starts nothing', async () => {
		const { result, fake } = await deliver(form({ trade_status: 'TRADE_CLOSED' }));
		expect(fake.sent).toEqual([{ status: 200, body: 'success', contentType: 'text/plain' }]);
		expect(result).toEqual({ noWebhookResponse: true });
	});

	it.each([
		['a sign that does not verify', form({ sign: 'forged' }), {}, 401],
		['another app than the parameter names', form({ app_id: 'app_2' }), {}, 401],
		[
			'a body that is not what the provider sends',
			form({}).replace('&trade_status=TRADE_SUCCESS', ''),
			{},
			400,
		],
		['a module that throws', form({}), { 'x-test': 'throw' }, 401],
	] as const)(
		'%s: refused with its own answer, nothing started',
		async (_case, body, headers, status) => {
			const { result, fake } = await deliver(body, { headers });
			expect(fake.sent).toEqual([{ status, body: { code: 'FAIL', message: `refused ${status}` } }]);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(fake.logged.map(({ level }) => level)).toEqual(['warn']);
		},
	);

	it('an unusable credential is a set-up error, as for every provider', async () => {
		const setUp = deliver(form({}), { publicKey: '' });
		await expect(setUp).rejects.toBeInstanceOf(NodeOperationError);
		await expect(setUp).rejects.toThrow('The Public Key is empty');
	});
});

const KEYS_URL = 'https://keys.example.test/keys';
const API_URL = 'https://api.example.test/trades/';
const API_CREDENTIAL = 'onlineTestApi';

/**
 * The same module, signed by naming a key the provider publishes, with the trade's amount and user
 * only in the provider's API (as Google Play's notifications lack them).
 */
const onlineProvider: PaymentProvider = {
	...formProvider,
	secretProblem: () => null,
	fetchForCheck: async (_request, network) => {
		const answer = await network({ method: 'GET', url: KEYS_URL });
		if (answer.status !== 200) {
			throw new ProviderUnavailableError(`the keys answered ${answer.status}`);
		}
		return { keys: answer.body };
	},
	verify: ({ rawBody, fetched }) => {
		const fields = Object.fromEntries(new URLSearchParams(Buffer.from(rawBody).toString('utf8')));
		return (fetched?.keys ?? '').split(',').includes(fields.sign)
			? { valid: true, signedAt: null, messageId: null, body: fields }
			: { valid: false, reason: 'an unknown key' };
	},
	complete: async (body, { network, api }) => {
		const answer = await network({
			method: 'GET',
			url: `${API_URL}${String(body.out_trade_no)}`,
			headers: { authorization: `Bearer ${api.token}` },
		});
		if (answer.status !== 200) {
			throw new ProviderUnavailableError(`the API answered ${answer.status}`);
		}
		return { ...body, ...(JSON.parse(answer.body) as IDataObject) };
	},
	apiCredential: API_CREDENTIAL,
	answers: undefined,
};

interface ProviderAnswers {
	keys?: number;
	api?: number;
	noAnswer?: boolean;
}

async function deliverOnline(sign: string, answers: ProviderAnswers = {}) {
	const requests: IHttpRequestOptions[] = [];
	const fake = fakeWebhookContext({
		rawBody: new URLSearchParams({
			sign,
			notify_id: 'ntf_2',
			out_trade_no: 'T2002',
			trade_status: 'TRADE_SUCCESS',
		}).toString(),
		secret: '',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		parameters: { provider: 'formTest', responseMode: 'lastNode' },
		otherCredentials: { [API_CREDENTIAL]: { token: 'api-token-1' } },
		httpRequest: async (options) => {
			requests.push(options);
			if (answers.noAnswer) throw new Error('connect ETIMEDOUT');
			const keys = options.url === KEYS_URL;
			const status = (keys ? answers.keys : answers.api) ?? 200;
			const body = keys ? 'k1,k2' : JSON.stringify({ total_cents: '1250', passback_params: 'u_9' });
			return { statusCode: status, headers: {}, body: Buffer.from(body) };
		},
	});
	const result = await answerDelivery(fake.context, onlineProvider, SETTINGS);
	return { result, fake, requests };
}

describe(scenario('paymentWebhook.online'), () => {
	it('checks with what it fetched, and reads the item from the completed body', async () => {
		const { result, fake, requests } = await deliverOnline('k2');
		expect(fake.sent).toEqual([]);
		expect(requests.map(({ url }) => url)).toEqual([KEYS_URL, `${API_URL}T2002`]);
		expect(requests[1].headers).toMatchObject({ authorization: 'Bearer api-token-1' });
		expect(result.workflowData?.[0][0].json).toMatchObject({
			kind: 'purchase',
			transactionId: 'T2002',
			amountMinor: 1250,
			userId: 'u_9',
		});
	});

	it('refuses a delivery its fetched keys do not verify, and asks the API nothing', async () => {
		const { result, fake, requests } = await deliverOnline('k3');
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
			const { result, fake } = await deliverOnline('k1', answers);
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
