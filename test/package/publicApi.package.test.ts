/**
 * The package root as a brand server uses it: the packed tarball installed into an app's
 * node_modules (with n8n-workflow beside it, as npm installs a peer), required by name, and its
 * signed requests sent to the sandbox with fetch.
 */
import { installIntoApp } from '../../support/n8n/installIntoApp';
import type { Answer } from '../../support/services/client';
import { KEYS, useSandbox } from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';

declare const PACKAGE_DIR: string;

type PublicApi = typeof import('../../index');

describe(scenario('package.publicApi'), () => {
	const sandbox = useSandbox();
	let installed: ReturnType<typeof installIntoApp>;
	let api: PublicApi;

	beforeAll(() => {
		installed = installIntoApp(PACKAGE_DIR);
		api = installed.requireFromApp('n8n-nodes-affiliate-tracking') as PublicApi;
	});

	afterAll(() => installed.remove());

	const key = (apiKey: string) => ({
		baseUrl: sandbox.url,
		apiKey,
		apiSecret: KEYS[apiKey].secret,
		signatureVersion: KEYS[apiKey].version,
	});

	async function send(request: ReturnType<PublicApi['buildSignedRequest']>) {
		const answer = await fetch(request.url, request);
		return (await answer.json()) as NonNullable<Answer['json']>;
	}

	/** A promoter center login for library_user, signed with `credential`, as the service answers it. */
	const login = async (credential: ReturnType<typeof key>) =>
		await send(
			api.buildSignedRequest({
				...credential,
				method: 'POST',
				path: '/promoter/login',
				body: { user_id: 'library_user' },
			}),
		);

	it('exports the signing API and the n8n classes', () => {
		// The SDK is these names (index.ts documents each); an internal helper is not one of them.
		expect(Object.keys(api).sort()).toEqual([
			'AffiliateTracking',
			'AffiliateTrackingApi',
			'AffiliateTrackingTrigger',
			'GooglePlayApi',
			'PaymentProviderApi',
			'PaymentProviderEvents',
			'PaymentWebhookSigningApi',
			'PaymentWebhookTrigger',
			'apiRoot',
			'buildSignedRequest',
			'encodeRfc3986',
			'readWireRequest',
			'signV1',
			'signV2',
			'signWireRequest',
			'toWireRequest',
			'v1StringToSign',
			'v2StringToSign',
		]);
		expect(typeof api.buildSignedRequest).toBe('function');
		expect(api.AffiliateTracking.name).toBe('AffiliateTracking');
		expect(api.AffiliateTrackingTrigger.name).toBe('AffiliateTrackingTrigger');
	});

	it('a v2 POST: the service accepts the signature and applies the refund', async () => {
		const credential = key('pk_test_videomax_v2');
		const request = api.buildSignedRequest({
			...credential,
			method: 'POST',
			path: '/track/refund',
			body: { transaction_id: 'txn_1001', reason: 'customer request' },
		});
		expect(request.headers).toEqual({
			'Content-Type': 'application/json',
			'X-Api-Key': credential.apiKey,
			'X-Api-Timestamp': expect.stringMatching(/^\d{10}$/),
			'X-Api-Sign': expect.stringMatching(/^[0-9a-f]{64}$/),
		});
		expect(request.body).toBe('{"transaction_id":"txn_1001","reason":"customer request"}');
		expect(JSON.stringify(request)).not.toContain(credential.apiSecret);
		const answer = await send(request);
		expect([answer.code, answer.data.status]).toEqual([0, 'APPLIED']);
	});

	it('buildSignedRequest sends and signs the wire request toWireRequest gives', () => {
		const credential = key('pk_test_videomax_v2');
		const request = {
			method: 'POST' as const,
			path: '/track/refund',
			body: { transaction_id: 'txn_wire' },
		};
		const signed = api.buildSignedRequest({ ...credential, ...request, timestamp: 1767225600 });
		const wire = api.toWireRequest(request, api.apiRoot(sandbox.url));
		expect([signed.url, signed.body]).toEqual([wire.url, wire.body]);
		expect(signed.headers['X-Api-Sign']).toBe(
			api.signWireRequest('v2', wire, '1767225600', credential.apiSecret),
		);
		// What n8n hands the credential for it reads back to the same bytes.
		expect(
			api.readWireRequest({ method: 'POST', url: wire.url, body: wire.body }, sandbox.url),
		).toEqual(wire);
	});

	it('a v2 GET with a query and an encoded path segment', async () => {
		const request = api.buildSignedRequest({
			...key('pk_test_videomax_v2'),
			method: 'GET',
			path: `/promoters/${api.encodeRfc3986('user_1001')}/statistics`,
			query: { start_date: '2020-01-01', end_date: undefined },
		});
		expect(request.url).toBe(
			`${sandbox.url}/api/open/v1/promoters/user_1001/statistics?start_date=2020-01-01`,
		);
		expect(request.body).toBeUndefined();
		const answer = await send(request);
		expect([answer.code, answer.data.object, answer.data.start_date]).toEqual([
			0,
			'promoter_statistics',
			'2020-01-01',
		]);
	});

	it('a v1 (legacy) key signs as v1', async () => {
		const answer = await login(key('pk_test_videomax_v1'));
		expect(answer.code).toBe(0);
		expect(typeof answer.data.token).toBe('string');
	});

	it('a wrong secret is refused by the service, not by the library', async () => {
		const answer = await login({
			...key('pk_test_videomax_v2'),
			apiSecret: 'sk_not_the_secret_of_this_key',
		});
		expect([answer.code, answer.message]).toEqual([1000004, 'Signature verification failed']);
	});

	it('refuses plain http:// off loopback before anything is signed', () => {
		expect(() =>
			api.buildSignedRequest({
				...key('pk_test_videomax_v2'),
				baseUrl: 'http://api.example.com',
				method: 'GET',
				path: '/promoters/u1',
			}),
		).toThrow('Base URL must use https://');
	});
});
