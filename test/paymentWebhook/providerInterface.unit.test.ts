/**
 * The provider interface (nodes/PaymentWebhookTrigger/provider.ts), through the trigger's
 * answerDelivery, with a module of this test's own that uses every part the HMAC providers leave
 * out: a form-encoded body, the Public Key, a parameter, a 400 refusal, answers of its own.
 */
import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import { answerDelivery } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import { textAt, type PaymentProvider } from '../../nodes/PaymentWebhookTrigger/provider';
import { fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';
import { scenario } from '../../support/scenarios';

const PUBLIC_KEY = 'test-public-key';
const APP_ID = 'app_1';

/** Signs by naming the public key in a form field: enough to tell a good delivery from a bad one. */
const formProvider: PaymentProvider<'formTest'> = {
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
