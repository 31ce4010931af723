/** The Payment Webhook Trigger's webhook() on support/fakes/fakeWebhookContext.ts. */
import { NodeOperationError, type IDataObject, type IHookFunctions } from 'n8n-workflow';

import {
	PLAIN_JSON_PROVIDERS,
	credentialDataOf,
	nodeParametersOf,
	SAMPLES,
	sampleEvent,
	SIGNATURE_HEADERS,
	signDelivery,
	SIGNS_NO_TIMESTAMP,
	TEST_SIGNING_SECRETS,
} from '../../support/payment/paymentSignatures';
import { PaymentWebhookSigningApi } from '../../credentials/PaymentWebhookSigningApi.credentials';
import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import {
	providerOf,
	PROVIDERS as REGISTRY,
	type Provider,
} from '../../nodes/PaymentWebhookTrigger/providers';
import {
	fakeWebhookContext,
	testSigningSecret,
	type FakeWebhookOptions,
} from '../../support/fakes/fakeWebhookContext';
import { scenario } from '../../support/scenarios';

const trigger = new PaymentWebhookTrigger();

const nowSeconds = () => Math.floor(Date.now() / 1000);

type Headers = Record<string, string>;
type Sign = (key: string, timestamp?: number) => Headers;
/** Each refused delivery's headers, from `sign` over the purchase body and the test secret. */
const FAULTS: Array<[string, (sign: Sign, secret: string, name: string) => Headers]> = [
	['no signature header', () => ({})],
	['a malformed header', (sign, secret, name) => ({ ...sign(secret), [name]: 'not-a-signature' })],
	['another secret', (sign, secret) => sign(`${secret.slice(0, -4)}9999`)],
	// Signed as sent, then changed on the way.
	['a tampered body', (sign, secret) => sign(secret)],
	['a stale timestamp', (sign, secret) => sign(secret, nowSeconds() - 3600)],
];

const purchaseBody = (provider: Provider, kind: 'purchase' | 'refund' = 'purchase') =>
	JSON.stringify(sampleEvent(provider, kind, { transactionId: 'txn_hook_1' }));

function delivery(
	provider: Provider,
	overrides: Partial<FakeWebhookOptions> & { events?: string[]; options?: IDataObject } = {},
) {
	const rawBody = overrides.rawBody ?? purchaseBody(provider);
	const secret = TEST_SIGNING_SECRETS[provider];
	return fakeWebhookContext({
		rawBody,
		secret: overrides.secret ?? secret,
		credential: credentialDataOf(provider),
		headers: overrides.headers ?? signDelivery(provider, rawBody.toString(), secret),
		rawBodyOnDemand: overrides.rawBodyOnDemand,
		parameters: {
			...nodeParametersOf(provider),
			provider,
			events: overrides.events ?? Object.keys(providerOf(provider).events),
			responseMode: 'onReceived',
			options: overrides.options ?? {},
			...overrides.parameters,
		},
	});
}

const run = async (fake: ReturnType<typeof fakeWebhookContext>) =>
	await trigger.webhook.call(fake.context);

describe(scenario('paymentWebhook.webhook'), () => {
	afterEach(() => jest.restoreAllMocks());

	describe.each(PLAIN_JSON_PROVIDERS)('%s', (provider) => {
		const secret = TEST_SIGNING_SECRETS[provider];

		it.each([
			['', false],
			[', reading the raw body when n8n has not (readRawBody)', true],
		])('an accepted delivery starts the workflow with exactly one item%s', async (_, onDemand) => {
			const fake = delivery(provider, { rawBodyOnDemand: onDemand });
			const result = await run(fake);
			expect(fake.readRawBodyCalls()).toBe(onDemand ? 1 : 0);
			expect(result.workflowData).toHaveLength(1);
			expect(result.workflowData?.[0]).toHaveLength(1);
			expect(result.workflowData?.[0][0].json).toMatchObject({
				provider,
				kind: 'purchase',
				transactionId: 'txn_hook_1',
				amount: '100.00',
				currency: 'USD',
				userId: 'user_1001',
			});
			expect(result.noWebhookResponse).toBeUndefined();
			expect(fake.sent).toEqual([]);
			expect(fake.logged).toEqual([]);
		});

		const faults = FAULTS.filter(
			// Lemon Squeezy and Creem sign no timestamp: nothing is stale.
			([label]) => label !== 'a stale timestamp' || !SIGNS_NO_TIMESTAMP.includes(provider),
		);
		it.each(faults)('%s: 401, no execution, one warning, no throw', async (label, headersOf) => {
			const rawBody = purchaseBody(provider);
			const sign: Sign = (key, timestamp) => signDelivery(provider, rawBody, key, { timestamp });
			const fake = delivery(provider, {
				headers: headersOf(sign, secret, SIGNATURE_HEADERS[provider]),
				rawBody:
					label === 'a tampered body' ? rawBody.replace('txn_hook_1', 'txn_hook_2') : rawBody,
			});
			const result = await run(fake);
			expect(result).toEqual({ noWebhookResponse: true });
			// A generic answer: why goes only to the log.
			expect(fake.sent).toEqual([{ status: 401, body: { error: 'Invalid webhook signature' } }]);
			expect(fake.logged).toEqual([
				expect.objectContaining({ level: 'warn', message: expect.stringContaining('refused') }),
			]);
			for (const text of [JSON.stringify(fake.logged), JSON.stringify(fake.sent)]) {
				expect(text).not.toContain(secret);
				expect(text).not.toContain('txn_hook_1');
				expect(text).not.toContain('user_1001');
			}
		});

		it('an event not selected: answered, nothing started, nothing logged', async () => {
			const fake = delivery(provider, {
				rawBody: purchaseBody(provider, 'refund'),
				events: Object.entries(providerOf(provider).events)
					.filter(([, reader]) => reader.kind === 'purchase')
					.map(([value]) => value),
			});
			const result = await run(fake);
			expect(result).toEqual({
				webhookResponse: {
					received: true,
					ignored: `${SAMPLES[provider].eventTypes.refund} is not selected`,
				},
			});
			expect(result.workflowData).toBeUndefined();
			expect(fake.sent).toEqual([]);
			expect(fake.logged).toEqual([]);
		});

		it('* selects every event, known or not', async () => {
			// Each provider's sample of an event that is neither a purchase nor a refund.
			const rawBody = JSON.stringify(SAMPLES[provider].otherEvent);
			const fake = delivery(provider, { rawBody, events: ['*'] });
			const result = await run(fake);
			expect(result.workflowData?.[0][0].json).toMatchObject({ kind: 'other' });
		});
	});

	it('the event type comes only from the signed body: X-Event-Name is never read', async () => {
		const body = JSON.parse(purchaseBody('lemonSqueezy')) as IDataObject;
		delete body.meta;
		const rawBody = JSON.stringify(body);
		const headers = {
			...signDelivery('lemonSqueezy', rawBody, TEST_SIGNING_SECRETS.lemonSqueezy),
			'x-event-name': 'order_created',
		};
		const fake = delivery('lemonSqueezy', { rawBody, headers, events: ['*'] });
		const result = await run(fake);
		expect(result).toEqual({
			webhookResponse: { received: true, ignored: 'the event names no type' },
		});
		expect(fake.sent).toEqual([]);
	});

	// When a line is written is RefusalLog's (refusalLog.unit.test.ts); here, what it says.
	it('refusals in the log: the first at once, then at most one line a minute per workflow, counting the refusals held back', async () => {
		const T0 = 1_800_000_000_000;
		const now = jest.spyOn(Date, 'now');
		/** An unsigned delivery to the workflow at T0 + `atMs`: its lines in the log. */
		const refusedAt = async (atMs: number) => {
			now.mockReturnValue(T0 + atMs);
			const fake = fakeWebhookContext({
				rawBody: purchaseBody('stripe'),
				secret: TEST_SIGNING_SECRETS.stripe,
				headers: {},
				workflowId: 'flooded',
				parameters: { provider: 'stripe', events: ['*'], options: {} },
			});
			expect(await run(fake)).toEqual({ noWebhookResponse: true });
			expect(fake.sent).toEqual([{ status: 401, body: { error: 'Invalid webhook signature' } }]);
			return fake.logged;
		};
		const line = (what: string, refusals: number) => ({
			level: 'warn',
			message: `Payment Webhook Trigger "Payment Webhook Trigger" refused ${what} (401): missing stripe-signature header`,
			meta: expect.objectContaining({ workflowId: 'flooded', refusals }),
		});
		expect(await refusedAt(0)).toEqual([line('a Stripe delivery', 1)]);
		expect(await refusedAt(1_000)).toEqual([]);
		expect(await refusedAt(60_000)).toEqual([
			line('2 deliveries since its last such line, the last from Stripe', 2),
		]);
	});

	it('a secret roll: the signature of the new secret among two is accepted', async () => {
		const rawBody = purchaseBody('stripe');
		const timestamp = nowSeconds();
		const sign = (secret: string) => signDelivery('stripe', rawBody, secret, { timestamp });
		const oldHeader = sign('whsec_old_secret_before_roll')['stripe-signature'];
		const both = `${oldHeader},${sign(TEST_SIGNING_SECRETS.stripe)['stripe-signature'].split(',')[1]}`;
		const result = await run(
			delivery('stripe', { rawBody, headers: { 'stripe-signature': both } }),
		);
		expect(result.workflowData?.[0]).toHaveLength(1);
	});

	it('takes the tolerance option', async () => {
		const rawBody = purchaseBody('paddle');
		const headers = signDelivery('paddle', rawBody, TEST_SIGNING_SECRETS.paddle, {
			timestamp: nowSeconds() - 1000,
		});
		const refused = await run(delivery('paddle', { rawBody, headers }));
		expect(refused).toEqual({ noWebhookResponse: true });
		const accepted = await run(
			delivery('paddle', { rawBody, headers, options: { toleranceSeconds: 3600 } }),
		);
		expect(accepted.workflowData?.[0]).toHaveLength(1);
	});

	it('a signed body that is no JSON object: 400, nothing started', async () => {
		for (const rawBody of ['not json', '[1,2]', '']) {
			const fake = delivery('lemonSqueezy', { rawBody });
			const result = await run(fake);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(fake.sent).toEqual([{ status: 400, body: { error: 'Invalid webhook body' } }]);
			expect(fake.logged).toHaveLength(1);
			expect(fake.logged[0].message).toMatch(/\(400\): the signed body is not a JSON object$/);
		}
	});

	it('an unusable secret is a setup error that names the credential, without the secret', async () => {
		const fake = delivery('standardWebhooks', { secret: 'whsec_not base64!' });
		const error = (await run(fake).catch((thrown: unknown) => thrown)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/not a Standard Webhooks secret/);
		expect(error.description).toMatch(/Payment Webhook Signing API/);
		expect(JSON.stringify({ ...error, message: error.message })).not.toContain('not base64!');
		expect(fake.sent).toEqual([]);
	});

	const toleranceError =
		'Parameter "Timestamp Tolerance (Seconds)" must be a whole number of seconds from 1 to 3600 (an hour): a wider window lets a captured delivery be replayed for longer';
	it.each([
		['events', [], 'Parameter "Events" must select at least one event (or *)'],
		['options', { toleranceSeconds: 0 }, toleranceError],
		['options', { toleranceSeconds: 2.5 }, toleranceError],
		// A huge window would switch replay protection off.
		['options', { toleranceSeconds: 3601 }, toleranceError],
		['options', { toleranceSeconds: 10 * 365 * 86_400 }, toleranceError],
		['options', { userIdMetadataKey: ' ' }, 'Parameter "User ID Metadata Key" must not be empty'],
		[
			'provider',
			'square',
			`Parameter "Provider" must be one of ${REGISTRY.map(({ id }) => id).join(', ')} (got "square")`,
		],
	] as const)('a parameter error names the parameter: %s %j', async (name, value, message) => {
		const fake = delivery('stripe', { parameters: { [name]: value } as IDataObject });
		const error = await run(fake).catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(message);
		expect(fake.sent).toEqual([]);
	});
});

// The description as n8n loads it: test/package/description.package.test.ts.
describe(scenario('paymentWebhook.credential'), () => {
	it('registers nothing at the provider: the webhook lifecycle answers true', async () => {
		const hook = {
			getNodeParameter: (_name: string, fallback: unknown) => fallback,
		} as unknown as IHookFunctions;
		const { checkExists, create, delete: remove } = trigger.webhookMethods.default;
		await expect(checkExists.call(hook)).resolves.toBe(true);
		await expect(create.call(hook)).resolves.toBe(true);
		await expect(remove.call(hook)).resolves.toBe(true);
	});

	it('the credential: its secrets masked, tested for form without contacting anyone', async () => {
		const credential = new PaymentWebhookSigningApi();
		expect(credential.name).toBe('paymentWebhookSigningApi');
		expect(credential.displayName).toBe('Payment Webhook Signing API');
		expect(credential.properties.map((p) => [p.name, p.typeOptions?.password ?? false])).toEqual([
			['signingSecret', true],
			['publicKey', false],
			['publicKeyId', false],
			['decryptionSecret', true],
			['rootCa', false],
		]);
		// An empty credential is the App Store's (no secret: Apple's root is pinned), no other's.
		for (const empty of ['', undefined]) {
			await expect(testSigningSecret(empty)).resolves.toEqual({
				status: 'OK',
				message:
					"The credential is well formed for Apple App Store, Google Play. It is checked against each delivery's signature; no provider is contacted.",
			});
		}
		const spaced = await testSigningSecret(' whsec_secret_with_space ');
		expect(spaced.status).toBe('Error');
		expect(spaced.message).not.toContain('whsec_secret_with_space');
	});

	// Which providers a secret fits, and which it does not (other providers may fit too), as the
	// message lists them.
	it.each([
		['stripe', 'Stripe, Paddle Billing, Lemon Squeezy, Creem', 'Polar, Standard Webhooks'],
		['paddle', 'Paddle Billing, Lemon Squeezy', 'Stripe, Polar, Standard Webhooks, Creem'],
		['standardWebhooks', 'Stripe, Polar, Standard Webhooks, Creem', ''],
		['polar', 'Paddle Billing, Lemon Squeezy, Polar', 'Stripe, Standard Webhooks, Creem'],
	] as const)(
		'the credential test names the providers whose form a %s secret fits',
		async (provider, fits, misfits) => {
			const result = await testSigningSecret(TEST_SIGNING_SECRETS[provider]);
			expect(result.status).toBe('OK');
			const named =
				/^The credential is well formed for (.*)\. It is checked against each delivery's signature; no provider is contacted\.$/
					.exec(result.message)?.[1]
					.split(', ');
			expect(named).toEqual(expect.arrayContaining(fits.split(', ')));
			for (const misfit of misfits.split(', ').filter(Boolean)) expect(named).not.toContain(misfit);
		},
	);

	it('the credential test no longer calls a malformed Standard Webhooks secret fit for it', async () => {
		const result = await testSigningSecret('whsec_not base64!');
		expect(result.message).not.toContain('Standard Webhooks');
		expect(result.message).not.toContain('not base64!');
	});
});
