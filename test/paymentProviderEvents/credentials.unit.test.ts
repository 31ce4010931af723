/**
 * The Payment Provider API credential of Payment Provider Events: one credential for every
 * provider, its Provider field showing that provider's fields only; each provider's
 * authenticate() (Stripe's and Paddle's keys as Bearer tokens, the App Store Server API's request
 * token, ES256, signed for each request); and the node's offline credential test of each.
 */
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';

import {
	NodeHelpers,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type INodeCredentialTestResult,
} from 'n8n-workflow';

import { CREDENTIALS } from './harness';
import { PaymentProviderApi } from '../../credentials/PaymentProviderApi.credentials';
import { PaymentProviderEvents } from '../../nodes/PaymentProviderEvents/PaymentProviderEvents.node';
import {
	APP_STORE_TOKEN_LIFETIME_SECONDS,
	appStoreToken,
	privateKeyOf,
} from '../../nodes/PaymentProviderEvents/providers/appStoreToken';
import { createTestChain } from '../../support/payment/appStoreChain';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

const APPLE = CREDENTIALS.appStore as ICredentialDataDecryptedObject & {
	issuerId: string;
	keyId: string;
	privateKey: string;
	bundleId: string;
};
const decode = (part: string) =>
	JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as object;

const credential = new PaymentProviderApi();
const field = (name: string) => credential.properties.find((p) => p.name === name);

/** The credential's fields n8n shows for `data` (its Provider), as its credential form does. */
const shownFor = (data: ICredentialDataDecryptedObject) =>
	credential.properties
		.filter((property) => NodeHelpers.displayParameter(data, property, null, null))
		.map(({ name }) => name);

/** The node's credential test on `data`, as n8n calls it. */
async function credentialTest(data: ICredentialDataDecryptedObject) {
	return await new PaymentProviderEvents().methods.credentialTest.paymentProviderApi.call(
		{} as ICredentialTestFunctions,
		{ id: 'c', name: 'c', type: 'paymentProviderApi', data } as ICredentialsDecrypted,
	);
}

/** The Authorization header authenticate() gives a request for `data`. */
async function authorizationOf(data: ICredentialDataDecryptedObject) {
	const options = await credential.authenticate(data, {
		url: 'https://api.example.com/events',
		method: 'GET',
		headers: { Accept: 'application/json' },
	});
	expect(options).toMatchObject({ url: 'https://api.example.com/events', method: 'GET' });
	expect(options.headers?.Accept).toBe('application/json');
	return String(options.headers?.Authorization);
}

/** An OK that names `found` and says nothing was sent: the provider checks the key on the first run. */
function expectCheckedOffline(result: INodeCredentialTestResult, found: string) {
	expect(result.status).toBe('OK');
	expect(result.message).toContain(found);
	expect(result.message).toMatch(/checks it on the first run \(nothing was sent\)/);
}

describe(scenario('paymentEvents.credentials'), () => {
	it('the token: header {alg ES256, kid, typ JWT}, payload {iss, iat, exp 20 minutes on, aud, bid}, r‖s signature by the key', () => {
		const token = appStoreToken(APPLE, 1_800_000_000);
		const [header, payload, signature] = token.split('.');
		expect(decode(header)).toEqual({ alg: 'ES256', kid: APPLE.keyId, typ: 'JWT' });
		expect(decode(payload)).toEqual({
			iss: APPLE.issuerId,
			iat: 1_800_000_000,
			exp: 1_800_000_000 + 20 * 60,
			aud: 'appstoreconnect-v1',
			bid: APPLE.bundleId,
		});
		expect(APP_STORE_TOKEN_LIFETIME_SECONDS).toBe(1200);
		const publicKey = createPublicKey(APPLE.privateKey);
		const signed = Buffer.from(`${header}.${payload}`);
		const raw = Buffer.from(signature, 'base64url');
		expect(raw).toHaveLength(64);
		expect(verify('sha256', signed, { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw)).toBe(true);
	});

	it('App Store: authenticate() adds a fresh Bearer token and keeps the request', async () => {
		const before = Math.floor(Date.now() / 1000);
		const options = await credential.authenticate(APPLE, {
			url: 'https://api.storekit.itunes.apple.com/inApps/v1/notifications/history',
			method: 'POST',
			headers: { Accept: 'application/json' },
			body: { startDate: 1, endDate: 2 },
		});
		expect(options).toMatchObject({ method: 'POST', body: { startDate: 1, endDate: 2 } });
		expect(options.headers?.Accept).toBe('application/json');
		const [scheme, token] = String(options.headers?.Authorization).split(' ');
		expect(scheme).toBe('Bearer');
		const { iat, bid } = decode(token.split('.')[1]) as { iat: number; bid: string };
		expect(bid).toBe(APPLE.bundleId);
		expect(iat).toBeGreaterThanOrEqual(before);
		expect(iat).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
	});

	it('Stripe and Paddle: authenticate() sends the key as a Bearer token and keeps the request', async () => {
		expect(await authorizationOf(CREDENTIALS.stripe)).toBe(
			`Bearer ${String(CREDENTIALS.stripe.secretKey)}`,
		);
		expect(await authorizationOf(CREDENTIALS.paddle)).toBe(
			`Bearer ${String(CREDENTIALS.paddle.apiKey)}`,
		);
		// Only the provider's own field: another provider's left in the data is not sent.
		expect(await authorizationOf({ ...CREDENTIALS.paddle, secretKey: 'sk_test_left_over' })).toBe(
			`Bearer ${String(CREDENTIALS.paddle.apiKey)}`,
		);
		expect(await authorizationOf({ provider: 'stripe', secretKey: ' sk_test_pasted\n' })).toBe(
			'Bearer sk_test_pasted',
		);
	});

	it("authenticate(): an unset Provider is Stripe (the field's default, as n8n fills it in); an unknown one is refused", async () => {
		expect(await authorizationOf({ secretKey: 'rk_test_no_provider' })).toBe(
			'Bearer rk_test_no_provider',
		);
		await expect(authorizationOf({ provider: 'paypal', secretKey: 'x' })).rejects.toThrow(
			'Provider must be stripe, paddle or appStore (got "paypal")',
		);
	});

	it('a private key pasted with its line breaks as \\n still signs', () => {
		const oneLine = APPLE.privateKey.trim().split('\n').join('\\n');
		expect(appStoreToken({ ...APPLE, privateKey: oneLine }, 1).split('.')).toHaveLength(3);
	});

	it.each([
		['no PEM', 'not a key', 'is not a PEM private key'],
		[
			'an RSA key',
			generateKeyPairSync('rsa', { modulusLength: 2048 })
				.privateKey.export({ type: 'pkcs8', format: 'pem' })
				.toString(),
			'is not an In-App Purchase key',
		],
		[
			'a P-384 key',
			generateKeyPairSync('ec', { namedCurve: 'P-384' })
				.privateKey.export({ type: 'pkcs8', format: 'pem' })
				.toString(),
			'is not an In-App Purchase key',
		],
	])('refuses %s as the Private Key', (_, pem, problem) => {
		const parsed = privateKeyOf(pem);
		expect('problem' in parsed && parsed.problem).toContain(problem);
		expect(() => appStoreToken({ ...APPLE, privateKey: pem }, 1)).toThrow(problem);
	});

	it("the credential: Payment Provider API, Provider first (default Stripe), then each provider's fields", () => {
		expect(credential).toMatchObject({
			name: 'paymentProviderApi',
			displayName: 'Payment Provider API',
			icon: {
				light: 'file:../icons/paymentProviderEvents.svg',
				dark: 'file:../icons/paymentProviderEvents.dark.svg',
			},
			documentationUrl:
				'https://github.com/n8n-nodes-affiliate-tracking/n8n-nodes-affiliate-tracking#payment-provider-events',
		});
		// No test request: the node's credential test checks the key offline.
		expect('test' in credential).toBe(false);
		expect(credential.properties.map(({ name }) => name)).toEqual([
			'provider',
			'secretKey',
			'apiKey',
			'environment',
			'keyNotice',
			'issuerId',
			'keyId',
			'privateKey',
			'bundleId',
			'rootCa',
		]);
		expect(field('provider')).toMatchObject({ type: 'options', default: 'stripe' });
		expect(field('provider')?.options).toEqual([
			{ name: 'Apple App Store', value: 'appStore' },
			{ name: 'Paddle Billing', value: 'paddle' },
			{ name: 'Stripe', value: 'stripe' },
		]);
		expect(field('provider')?.description).toMatch(/pick the same provider in the .* node/);
		expect(field('environment')?.default).toBe('live');
	});

	it.each([
		['stripe', ['provider', 'secretKey']],
		['paddle', ['provider', 'apiKey', 'environment']],
		[
			'appStore',
			['provider', 'keyNotice', 'issuerId', 'keyId', 'privateKey', 'bundleId', 'rootCa'],
		],
	])('Provider %s: only its own fields are shown', (provider, names) => {
		expect(shownFor({ provider })).toEqual(names);
	});

	it('the keys are password fields; the root certificate (public) is not; the notice says why n8n holds the key', () => {
		for (const name of ['secretKey', 'apiKey', 'privateKey']) {
			expect([name, field(name)?.typeOptions?.password]).toEqual([name, true]);
		}
		expect(field('rootCa')?.typeOptions?.password).toBeUndefined();
		expect(field('keyNotice')?.type).toBe('notice');
		expect(field('keyNotice')?.displayName).toMatch(/ES256/);
		expect(field('keyNotice')?.displayName).toMatch(/cannot move money/);
	});

	it('the credential test, App Store: OK for a key that signs, naming the bundle ID; nothing is sent', async () => {
		expectCheckedOffline(await credentialTest(APPLE), `tokens for ${APPLE.bundleId}`);
	});

	it.each([
		['no Issuer ID', { issuerId: '' }, 'Set Issuer ID'],
		['no Key ID nor Bundle ID', { keyId: ' ', bundleId: '' }, 'Set Key ID, Bundle ID'],
		['a key that is no PEM', { privateKey: 'MIGTAgEAMBMG' }, 'is not a PEM private key'],
		['a root that is no certificate', { rootCa: 'not a certificate' }, 'not a PEM certificate'],
	])('the credential test, App Store: Error for %s', async (_, change, message) => {
		expect(await credentialTest({ ...APPLE, ...change })).toEqual({
			status: 'Error',
			message: expect.stringContaining(message),
		});
	});

	it("the credential test, App Store: Error for a test root this repository published; a test root of one's own named", async () => {
		const published = JSON.parse(
			readRepoFile('support/fixtures/appStorePublishedRoots.json'),
		) as Record<string, string>;
		for (const rootCa of Object.values(published)) {
			const result = await credentialTest({ ...APPLE, rootCa });
			expect(result.status).toBe('Error');
			expect(result.message).toContain('published with its private key');
		}
		const { rootPem } = await createTestChain({ rootName: 'Own Test Root' });
		const own = await credentialTest({ ...APPLE, rootCa: rootPem });
		expect(own.status).toBe('OK');
		expect(own.message).toMatch(/replaces Apple Root CA - G3, for tests only/);
		expect(own.message).toMatch(/refuses it with Environment Production/);
	});

	it.each([
		['rk_test_51Hx', 'a Stripe test restricted key'],
		['rk_live_51Hx', 'a Stripe live restricted key'],
		['sk_test_51Hx', 'a Stripe test secret key'],
		['sk_live_51Hx', 'a Stripe live secret key'],
		['  sk_live_51Hx\n', 'a Stripe live secret key'],
	])('the credential test, Stripe: OK for %j (%s); nothing is sent', async (secretKey, kind) => {
		expectCheckedOffline(
			await credentialTest({ provider: 'stripe', secretKey }),
			`The Secret Key is ${kind}; Stripe checks it`,
		);
	});

	it.each([
		['no key', '', 'Set Secret Key'],
		['only spaces', '   ', 'Set Secret Key'],
		[
			'a publishable key',
			'pk_live_51Hx',
			'is not a Stripe secret key (sk_…) or restricted key (rk_…)',
		],
		['a webhook signing secret', 'whsec_abc', 'is not a Stripe secret key'],
		["Paddle's key", 'pdl_live_apikey_01', 'is not a Stripe secret key'],
	])('the credential test, Stripe: Error for %s', async (_, secretKey, message) => {
		expect(await credentialTest({ provider: 'stripe', secretKey })).toEqual({
			status: 'Error',
			message: expect.stringContaining(message),
		});
	});

	it.each([
		['pdl_sdbx_apikey_01', 'sandbox', 'a Paddle Sandbox key'],
		['pdl_live_apikey_01', 'live', 'a Paddle Live key'],
		// A key without its environment's marker: the Environment is taken as set.
		['pdl_apikey_01', 'sandbox', 'a Paddle Sandbox key'],
		// Unset: Live, the field's default.
		['pdl_apikey_01', null, 'a Paddle Live key'],
	])(
		'the credential test, Paddle: OK for %s with Environment %s; nothing is sent',
		async (apiKey, environment, kind) => {
			expectCheckedOffline(
				await credentialTest({
					provider: 'paddle',
					apiKey,
					...(environment === null ? {} : { environment }),
				}),
				`The API Key looks like ${kind}; Paddle Billing checks it`,
			);
		},
	);

	it.each([
		['no key', '', 'live', 'Set API Key'],
		[
			"a key that is not Paddle's",
			'sk_test_51Hx',
			'live',
			'is not a Paddle API key (pdl_live_apikey_… or pdl_sdbx_apikey_…)',
		],
		[
			'a live key with Environment Sandbox',
			'pdl_live_apikey_01',
			'sandbox',
			'The API Key is a Live key (pdl_live_…), but Environment is Sandbox: set Environment to Live, or use a Sandbox key',
		],
		[
			'a sandbox key with Environment Live',
			'pdl_sdbx_apikey_01',
			'live',
			'The API Key is a Sandbox key (pdl_sdbx_…), but Environment is Live: set Environment to Sandbox, or use a Live key',
		],
	])('the credential test, Paddle: Error for %s', async (_, apiKey, environment, message) => {
		expect(await credentialTest({ provider: 'paddle', apiKey, environment })).toEqual({
			status: 'Error',
			message: expect.stringContaining(message),
		});
	});

	it("the credential test checks the Provider's own fields: another provider's key is no key", async () => {
		expect(await credentialTest({ ...CREDENTIALS.stripe, provider: 'paddle' })).toEqual({
			status: 'Error',
			message: 'Set API Key',
		});
		expect(await credentialTest({ ...CREDENTIALS.paddle, provider: 'appStore' })).toEqual({
			status: 'Error',
			message: 'Set Issuer ID, Key ID, Private Key, Bundle ID',
		});
		// Unset: Stripe, the field's default.
		expectCheckedOffline(
			await credentialTest({ secretKey: 'rk_test_51Hx' }),
			'a Stripe test restricted key',
		);
		expect(await credentialTest({ provider: 'paypal', secretKey: 'rk_test_51Hx' })).toEqual({
			status: 'Error',
			message: 'Provider must be one of stripe, paddle, appStore (got "paypal")',
		});
	});
});
