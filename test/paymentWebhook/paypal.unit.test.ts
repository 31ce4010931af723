/**
 * PayPal through the trigger (answerDelivery, with a fake n8n HTTP helper standing in for PayPal's
 * certificate URLs): deliveries signed by the test signer's chain (support/payment/paypalChain.js,
 * fresh for this run) verify; each refusal is 401 with nothing started; the certificate is
 * fetched once for many deliveries, never from a host that is not PayPal's, and a PayPal that does
 * not answer gets the delivery answered 503. The test root replaces the pinned roots only as the
 * credential's Root Certificate, with Environment Sandbox, and says so.
 */
import { X509Certificate } from 'node:crypto';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { answerDelivery } from '../../nodes/PaymentWebhookTrigger/delivery';
import {
	certificateCache,
	NEW_FETCHES_PER_MINUTE,
} from '../../nodes/PaymentWebhookTrigger/providers/paypal/certificateCache';
import {
	DIGICERT_GLOBAL_ROOT_G2,
	DIGICERT_HIGH_ASSURANCE_EV_ROOT_CA,
	DIGICERT_SHA2_EV_SERVER_CA,
} from '../../nodes/PaymentWebhookTrigger/providers/paypal/digicertRoots';
import { paypal } from '../../nodes/PaymentWebhookTrigger/providers/paypal/paypal';
import {
	chainProblem,
	crc32,
} from '../../nodes/PaymentWebhookTrigger/providers/paypal/verification';
import { activateTrigger, fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';
import { sampleEvent } from '../../support/payment/paymentSignatures';
import {
	createTestChain,
	crc32 as zlibCrc32,
	nodeRootCertificates,
	transmissionHeaders,
	type TestChain,
} from '../../support/payment/paypalChain';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

const WEBHOOK_ID = 'WH4UNITTEST0001';
const LOOPBACK = 'http://127.0.0.1:8787/__providers/paypal';
const SETTINGS = {
	events: Object.keys(paypal.events),
	toleranceSeconds: 300,
	userIdMetadataKey: 'user_id',
};

/** A certificate URL's last segment, as PayPal names its certificates. */
const certIdOf = (name: string) => `CERT-0001-${name}`;

let trusted: TestChain;
let other: TestChain;
let liveNamed: TestChain;
let expired: TestChain;
beforeAll(async () => {
	[trusted, other, liveNamed, expired] = await Promise.all([
		createTestChain({ certId: certIdOf('trusted') }),
		createTestChain({ certId: certIdOf('other'), rootName: 'Another Root' }),
		createTestChain({ certId: certIdOf('live'), leafName: 'messageverificationcerts.paypal.com' }),
		createTestChain({
			certId: certIdOf('expired'),
			leafValidity: { notBefore: new Date('2020-01-01Z'), notAfter: new Date('2021-01-01Z') },
		}),
	]);
});
beforeEach(() => certificateCache.clear());

const urlOf = (chain: TestChain, base = LOOPBACK) =>
	`${base}/v1/notifications/certs/${chain.certId}`;
const purchase = (transactionId = 'CAPTURE1') =>
	JSON.stringify(sampleEvent('paypal', 'purchase', { transactionId, userId: 'buyer_7' }));
const now = () => Math.floor(Date.now() / 1000);

interface Delivery {
	body?: string;
	/** The chain that signs (trusted unless said). */
	chain?: TestChain;
	certUrl?: string;
	webhookId?: string;
	timestamp?: number;
	/** Sent instead of the body that was signed. */
	sentBody?: string;
	headers?: Record<string, string>;
	rootCa?: string;
	environment?: string;
	/** What the certificate URLs answer, by URL (each known chain's URL serves it unless said). */
	answers?: Record<string, { status: number; body?: string } | 'no answer'>;
}

/** All the requests the fake HTTP helper was sent, across one test's deliveries. */
let requests: string[] = [];
beforeEach(() => {
	requests = [];
});

async function deliver(delivery: Delivery = {}) {
	const chain = delivery.chain ?? trusted;
	const body = delivery.body ?? purchase();
	const headers =
		delivery.headers ??
		transmissionHeaders({
			chain,
			certUrl: delivery.certUrl ?? urlOf(chain),
			rawBody: body,
			webhookId: delivery.webhookId ?? WEBHOOK_ID,
			timestamp: delivery.timestamp ?? now(),
		});
	const served = new Map(
		[trusted, other, liveNamed, expired].flatMap((each) => [
			[urlOf(each), { status: 200, body: each.chainPem }],
			[urlOf(each, 'https://api.paypal.com'), { status: 200, body: each.chainPem }],
		]),
	);
	const fake = fakeWebhookContext({
		rawBody: delivery.sentBody ?? body,
		secret: WEBHOOK_ID,
		credential: { rootCa: delivery.rootCa ?? trusted.rootPem },
		headers,
		parameters: {
			provider: 'paypal',
			responseMode: 'lastNode',
			paypalEnvironment: delivery.environment ?? 'sandbox',
		},
		httpRequest: async (options: IHttpRequestOptions) => {
			requests.push(options.url);
			const answer = delivery.answers?.[options.url] ?? served.get(options.url);
			if (answer === 'no answer') throw new Error('connect ECONNREFUSED');
			const { status, body: text = '' } = answer ?? { status: 404, body: '{}' };
			return { statusCode: status, headers: {}, body: Buffer.from(text) };
		},
	});
	const result = await answerDelivery(fake.context, paypal, SETTINGS);
	return { result, fake };
}

/** A delivery refused with 401: nothing started, the generic answer, the reason logged. */
async function expectRefused(delivery: Delivery, reason: string | RegExp) {
	const { result, fake } = await deliver(delivery);
	expect(result).toEqual({ noWebhookResponse: true });
	expect(fake.sent).toEqual([{ status: 401, body: { error: 'Invalid webhook signature' } }]);
	expect(fake.logged).toHaveLength(1);
	expect(fake.logged[0].message).toMatch(reason);
	expect(fake.logged[0].message).not.toContain(WEBHOOK_ID);
}

describe(scenario('paymentWebhook.paypal'), () => {
	it('signs the CRC32 of the body bytes as an unsigned decimal, as zlib computes it', () => {
		for (const text of ['', '{"id":"WH-1"}', 'Zoë paid 10 € — ありがとう', purchase()]) {
			const bytes = Buffer.from(text, 'utf8');
			expect(crc32(bytes)).toBe(zlibCrc32(bytes));
			expect(crc32(bytes)).toBeGreaterThanOrEqual(0);
		}
		expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
	});

	it('pins the two DigiCert roots exactly as Node’s root store holds them', () => {
		for (const root of [DIGICERT_HIGH_ASSURANCE_EV_ROOT_CA, DIGICERT_GLOBAL_ROOT_G2]) {
			const certificate = new X509Certificate(root.pem);
			expect(certificate.fingerprint256).toBe(root.fingerprint256);
			const inNode = nodeRootCertificates().find(
				(pem) => new X509Certificate(pem).fingerprint256 === root.fingerprint256,
			);
			expect(inNode?.trim()).toBe(root.pem);
		}
	});

	it('completes a chain served as the leaf alone only with an intermediate the root issued', () => {
		const [leafPem, intermediatePem] = trusted.chainPem.split(/(?<=-----END CERTIFICATE-----)\n/);
		const [leaf, intermediate, root] = [leafPem, intermediatePem, trusted.rootPem].map(
			(pem) => new X509Certificate(pem),
		);
		const at = Date.now();
		expect(chainProblem([leaf], { roots: [root], intermediates: [] }, at)).toBe(
			'the leaf certificate does not chain to a trusted root',
		);
		expect(chainProblem([leaf], { roots: [root], intermediates: [intermediate] }, at)).toBeNull();
		const otherRoot = new X509Certificate(other.rootPem);
		expect(chainProblem([leaf], { roots: [otherRoot], intermediates: [intermediate] }, at)).toBe(
			'the intermediate certificate does not chain to a trusted root',
		);
		// The intermediate PayPal's SDKs ship: a CA issued by the pinned EV root, valid to 2028.
		const known = new X509Certificate(DIGICERT_SHA2_EV_SERVER_CA.pem);
		const evRoot = new X509Certificate(DIGICERT_HIGH_ASSURANCE_EV_ROOT_CA.pem);
		expect(known.fingerprint256).toBe(DIGICERT_SHA2_EV_SERVER_CA.fingerprint256);
		expect([known.ca, known.checkIssued(evRoot), known.verify(evRoot.publicKey)]).toEqual([
			true,
			true,
			true,
		]);
		expect(known.validTo).toBe('Oct 22 12:00:00 2028 GMT');
	});

	it('a signed capture verifies: one item, the certificate fetched once from the sandbox URL', async () => {
		const { result, fake } = await deliver();
		expect(fake.sent).toEqual([]);
		expect(requests).toEqual([urlOf(trusted)]);
		expect(result.workflowData?.[0][0].json).toMatchObject({
			provider: 'paypal',
			eventType: 'PAYMENT.CAPTURE.COMPLETED',
			kind: 'purchase',
			transactionId: 'CAPTURE1',
			amountMinor: 10000,
			userId: 'buyer_7',
			pinnedRootReplaced: true,
		});
	});

	it.each<[string, () => Delivery, RegExp]>([
		['another root', () => ({ chain: other }), /does not chain to a trusted root/],
		['another webhook ID', () => ({ webhookId: 'WH4OTHER0002' }), /does not match/],
		['a changed body (its CRC32)', () => ({ sentBody: purchase('CAPTURE2') }), /does not match/],
		['an old transmission time', () => ({ timestamp: now() - 3600 }), /outside the tolerance/],
		['a time to come', () => ({ timestamp: now() + 600 }), /outside the tolerance/],
		[
			'the live leaf name at a sandbox endpoint',
			() => ({ chain: liveNamed, rootCa: liveNamed.rootPem }),
			/is not messageverificationcerts\.sandbox/,
		],
		[
			'an expired leaf',
			() => ({ chain: expired, rootCa: expired.rootPem }),
			/leaf certificate is not valid now/,
		],
	])('%s: 401, nothing started', async (_name, delivery, reason) => {
		await expectRefused(delivery(), reason);
	});

	it('a self-signed leaf in PayPal’s name, served from the certificate URL, is refused', async () => {
		const url = urlOf(trusted).replace('trusted', 'forged');
		const forged = await createTestChain({ certId: certIdOf('forged'), withIntermediate: false });
		const [leaf] = forged.chainPem.split(/(?<=-----END CERTIFICATE-----)\n/);
		await expectRefused(
			{
				chain: forged,
				certUrl: url,
				answers: { [url]: { status: 200, body: `${leaf}\n${forged.rootPem}` } },
			},
			/does not chain to a trusted root/,
		);
	});

	it.each([
		['no headers', {}, /missing paypal-transmission-id header/],
		['another algorithm', { 'paypal-auth-algo': 'SHA1withRSA' }, /is not SHA256withRSA/],
		[
			'a malformed time',
			{ 'paypal-transmission-time': 'yesterday' },
			/malformed paypal-transmission-time/,
		],
		[
			'a transmission ID with a pipe',
			{ 'paypal-transmission-id': 'a|b' },
			/malformed paypal-transmission-id/,
		],
	])('%s: 401 before anything is fetched', async (_name, change, reason) => {
		const body = purchase();
		const signed = transmissionHeaders({
			chain: trusted,
			certUrl: urlOf(trusted),
			rawBody: body,
			webhookId: WEBHOOK_ID,
			timestamp: now(),
		});
		const headers = Object.keys(change).length === 0 ? {} : { ...signed, ...change };
		await expectRefused({ body, headers }, reason);
		expect(requests).toEqual([]);
	});

	describe('certificate URLs: PayPal’s hosts only (https, the certificate path), this machine only under a test root', () => {
		it.each([
			'https://certs.example.com/v1/notifications/certs/CERT-0001-trusted',
			'https://api.paypal.com.example.com/v1/notifications/certs/CERT-0001-trusted',
			'https://api.paypal.com@example.com/v1/notifications/certs/CERT-0001-trusted',
			'http://api.paypal.com/v1/notifications/certs/CERT-0001-trusted',
			'https://api.paypal.com:8443/v1/notifications/certs/CERT-0001-trusted',
			'https://api.paypal.com/v1/notifications/certs/CERT-0001-trusted?x=1',
			'https://api.paypal.com/v1/oauth2/token',
			'http://10.0.0.5:8787/__providers/paypal/v1/notifications/certs/CERT-0001-trusted',
			'file:///etc/passwd',
		])('%s: nothing fetched, 401', async (certUrl) => {
			await expectRefused({ certUrl }, /is not a PayPal certificate URL/);
			expect(requests).toEqual([]);
		});

		it('PayPal’s own host is fetched over https; its chain must still lead to the trusted root', async () => {
			const certUrl = urlOf(other, 'https://api.paypal.com');
			await expectRefused({ chain: other, certUrl }, /does not chain/);
			expect(requests).toEqual([certUrl]);
		});

		it('with the pinned roots (no Root Certificate), this machine’s URL is refused, unfetched', async () => {
			await expectRefused({ rootCa: '' }, /is not a PayPal certificate URL$/);
			expect(requests).toEqual([]);
		});

		it('with the pinned roots, a chain under a test root from PayPal’s host is refused', async () => {
			const certUrl = urlOf(trusted, 'https://api.paypal.com');
			await expectRefused({ rootCa: '', certUrl }, /does not chain to a trusted root/);
		});

		it('a certificate URL that serves none: 401, and it is not fetched again for a while', async () => {
			const certUrl = urlOf(trusted).replace('trusted', 'unknown');
			await expectRefused({ certUrl }, /no certificate was found/);
			await expectRefused({ certUrl }, /no certificate was found/);
			expect(requests).toEqual([certUrl]);
		});
	});

	describe('the cache', () => {
		it('fetches a certificate once for many deliveries, also when they come at once', async () => {
			await Promise.all([1, 2, 3].map(async () => await deliver()));
			for (let index = 0; index < 5; index++) {
				const { result } = await deliver({ body: purchase(`CAPTURE_${index}`) });
				expect(result.workflowData).toHaveLength(1);
			}
			expect(requests).toEqual([urlOf(trusted)]);
			expect(certificateCache.fetches).toBe(1);
		});

		it.each<[string, { status: number } | 'no answer', RegExp]>([
			['PayPal answers 503', { status: 503 }, /answered 503/],
			['PayPal answers 429', { status: 429 }, /answered 429/],
			['PayPal gives no answer', 'no answer', /gave no answer: connect ECONNREFUSED/],
		])(
			'%s: 503 with Retry-After, nothing started, asked again only after a while',
			async (_c, answer, why) => {
				const answers = { [urlOf(trusted)]: answer };
				for (let attempt = 0; attempt < 2; attempt++) {
					const { result, fake } = await deliver({ answers });
					expect(result).toEqual({ noWebhookResponse: true });
					expect(fake.sent).toEqual([
						{ status: 503, body: { error: 'Temporarily unavailable: retry later' } },
					]);
					expect(fake.headersSet).toEqual({ 'Retry-After': '30' });
					expect(fake.logged[0].message).toMatch(why);
				}
				expect(requests).toEqual([urlOf(trusted)]);
			},
		);

		it(`fetches at most ${NEW_FETCHES_PER_MINUTE} new URLs a minute; the others get 503, unfetched`, async () => {
			const statuses: number[] = [];
			for (let index = 0; index <= NEW_FETCHES_PER_MINUTE; index++) {
				const certUrl = urlOf(trusted).replace('trusted', `made-up-${index}`);
				const { fake } = await deliver({ certUrl });
				statuses.push(fake.sent[0].status);
			}
			expect(requests).toHaveLength(NEW_FETCHES_PER_MINUTE);
			expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
			expect(statuses.at(-1)).toBe(503);
		});
	});
});

describe(scenario('paymentWebhook.paypal.testRoot'), () => {
	it('a Root Certificate with Environment Live is a set-up error: every delivery fails, unfetched', async () => {
		await expect(deliver({ environment: 'live' })).rejects.toThrow(
			'The Root Certificate replaces DigiCert High Assurance EV Root CA and DigiCert Global Root G2, which is for tests only: it is refused with Environment Live',
		);
		expect(requests).toEqual([]);
	});

	it('a test root this repository published is refused in any environment', async () => {
		const published = Object.values(
			JSON.parse(readRepoFile('support/fixtures/appStorePublishedRoots.json')) as Record<
				string,
				string
			>,
		);
		for (const rootCa of published) {
			const secrets = {
				signingSecret: WEBHOOK_ID,
				publicKey: '',
				publicKeyId: '',
				decryptionSecret: '',
				rootCa,
			};
			expect(paypal.secretProblem(secrets)).toMatch(
				/is a test root this package's repository published/,
			);
			for (const environment of ['sandbox', 'live'])
				await expect(deliver({ rootCa, environment })).rejects.toThrow(
					/published with its private key/,
				);
		}
	});

	it.each([
		['no webhook ID', '', 'The Signing Secret is empty'],
		['a Stripe secret', 'whsec_abc', /is not a PayPal webhook ID/],
		['a pasted key', 'WH 1', /is not a PayPal webhook ID/],
	])('%s as the Signing Secret: the credential cannot be used', (_c, signingSecret, problem) => {
		const secrets = {
			signingSecret,
			publicKey: '',
			publicKeyId: '',
			decryptionSecret: '',
			rootCa: '',
		};
		expect(paypal.secretProblem(secrets)).toEqual(
			typeof problem === 'string' ? problem : expect.stringMatching(problem),
		);
	});

	it('an unknown Environment is a set-up error', async () => {
		await expect(deliver({ environment: 'staging' })).rejects.toThrow(
			'The Environment parameter must be live or sandbox',
		);
	});

	it('names the replaced roots, at activation once, and only for a credential with a webhook ID', async () => {
		const secrets = {
			signingSecret: WEBHOOK_ID,
			publicKey: '',
			publicKeyId: '',
			decryptionSecret: '',
		};
		const root = new X509Certificate(trusted.rootPem);
		expect(paypal.replacedRoot?.({ ...secrets, rootCa: trusted.rootPem })).toEqual({
			pinned: 'DigiCert High Assurance EV Root CA and DigiCert Global Root G2',
			subject: root.subject.split('\n').join(', '),
			fingerprint256: root.fingerprint256,
		});
		expect(paypal.replacedRoot?.({ ...secrets, rootCa: '' })).toBeNull();
		expect(paypal.replacedRoot?.({ ...secrets, rootCa: DIGICERT_GLOBAL_ROOT_G2.pem })).toBeNull();
		expect(
			paypal.replacedRoot?.({ ...secrets, signingSecret: '', rootCa: trusted.rootPem }),
		).toBeNull();

		const logged = await activateTrigger('paypal', 'PayPal payments', {
			paymentWebhookSigningApi: { signingSecret: WEBHOOK_ID, rootCa: trusted.rootPem },
		});
		expect(logged.map(({ message }) => message)).toEqual([
			`Payment Webhook Trigger "PayPal payments" (PayPal): its Root Certificate replaces DigiCert High Assurance EV Root CA and DigiCert Global Root G2, for tests only: deliveries signed under "CN=Affiliate Tracking PayPal Test Root, O=Test, C=US" (SHA-256 ${root.fingerprint256}) are taken as genuine. Each item it emits carries pinnedRootReplaced: true.`,
		]);
	});
});
