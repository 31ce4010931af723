/**
 * Google Play through the trigger's answerDelivery, its network routed into the sandbox's
 * emulation of Google (sandbox/paymentProviders/googlePlay.js, in this process): pushes signed by
 * the emulated Google, completed from the emulated Play Developer API.
 */
import { generateKeyPairSync } from 'node:crypto';

import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { answerDelivery } from '../../nodes/PaymentWebhookTrigger/delivery';
import { googlePlay } from '../../nodes/PaymentWebhookTrigger/providers/googlePlay/googlePlay';
import {
	clearAccessTokens,
	endpointsOf,
} from '../../nodes/PaymentWebhookTrigger/providers/googlePlay/playApi';
import { clearKeyCache } from '../../nodes/PaymentWebhookTrigger/providers/googlePlay/pushToken';
import { googlePlayEmulation as emulation } from '../../sandbox';
import { fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';
import * as payment from '../../support/payment/paymentSignatures';
import { scenario } from '../../support/scenarios';

const BASE = 'http://127.0.0.1:8787/__providers/googlePlay';
const signer = payment.SIGNERS.googlePlay;
const API = { privateKeyJson: emulation.serviceAccountJson(), googleEndpoints: BASE };
const SETTINGS = { events: ['*'], toleranceSeconds: 300, userIdMetadataKey: 'user_id' };

interface Push {
	body: string;
	headers: Record<string, string>;
}

/** A push sent to the trigger: what it answered, emitted and asked Google. */
async function deliver({ body, headers }: Push, api: IDataObject = API) {
	const requests: IHttpRequestOptions[] = [];
	const fake = fakeWebhookContext({
		rawBody: body,
		secret: '',
		headers: { 'content-type': 'application/json', ...headers },
		parameters: { provider: 'googlePlay', responseMode: 'lastNode', ...signer.nodeParameters },
		otherCredentials: { googlePlayApi: api },
		httpRequest: async (options) => {
			requests.push(options);
			const url = new URL(options.url);
			const answer = emulation.answer({
				method: String(options.method),
				path: url.pathname.slice('/__providers/googlePlay'.length) + url.search,
				headers: Object.fromEntries(
					Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
				),
				body: Buffer.from(typeof options.body === 'string' ? options.body : ''),
			});
			return {
				statusCode: answer.status,
				headers: Object.fromEntries(
					Object.entries(answer.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
				),
				body: Buffer.from(JSON.stringify(answer.body)),
			};
		},
	});
	const result = await answerDelivery(fake.context, googlePlay, SETTINGS);
	const item = result.workflowData?.[0][0].json;
	return { result, fake, requests, item };
}

/** A signed push of a sample (its API answers registered in the emulation). */
function push(kind: 'purchase' | 'refund', fields: Record<string, unknown>): Push {
	const event = payment.sampleEvent('googlePlay', kind, fields as never);
	const { body } = payment.encodeEvent('googlePlay', event);
	return { body, headers: payment.signWithTestSecret('googlePlay', body) };
}

beforeEach(() => {
	clearKeyCache();
	clearAccessTokens();
});

describe(scenario('paymentWebhook.googlePlay.trigger'), () => {
	it('a purchase: the order, amount and user ID come from the Play Developer API', async () => {
		const { item, fake, requests } = await deliver(
			push('purchase', {
				transactionId: 'GPA.1111-2222-3333-44444',
				userId: 'user_77',
				amountMinor: 2590,
				currency: 'EUR',
			}),
		);
		expect(fake.sent).toEqual([]);
		expect(item).toMatchObject({
			provider: 'googlePlay',
			eventType: 'ONE_TIME_PRODUCT_PURCHASED',
			kind: 'purchase',
			transactionId: 'GPA.1111-2222-3333-44444',
			amountMinor: 2590,
			amount: '25.90',
			currency: 'EUR',
			userId: 'user_77',
			pinnedRootReplaced: true,
		});
		const paths = requests.map(({ url }) => new URL(url).pathname.split('/').slice(3, 6).join('/'));
		expect(paths).toEqual([
			'oauth2/v3/certs',
			'token',
			'androidpublisher/v3/applications',
			'androidpublisher/v3/applications',
		]);
		expect(requests[3].url).toContain('/orders/GPA.1111-2222-3333-44444');
		// Nothing secret in what was logged.
		expect(JSON.stringify(fake.logged)).not.toContain('PRIVATE KEY');
	});

	it("a renewal: the subscription's latest successful order, its user and total", async () => {
		const samples = payment.SAMPLES.googlePlay as unknown as {
			subscriptionPurchase: { lineItems: Array<{ latestSuccessfulOrderId: string }> };
			money: (minor: number, currency: string) => IDataObject;
			tokenOf: (orderId: string) => string;
		};
		const orderId = samples.subscriptionPurchase.lineItems[0].latestSuccessfulOrderId;
		const purchaseToken = samples.tokenOf('subscription_1');
		emulation.register({
			purchaseToken,
			orderId,
			purchase: samples.subscriptionPurchase,
			order: { orderId, total: samples.money(499, 'EUR') },
		});
		const notification = {
			version: '1.0',
			packageName: signer.nodeParameters?.packageName,
			eventTimeMillis: '1795660000000',
			subscriptionNotification: { version: '1.0', notificationType: 2, purchaseToken },
		};
		const body = JSON.stringify({
			message: {
				data: Buffer.from(JSON.stringify(notification)).toString('base64'),
				messageId: 'm_renew_1',
			},
			subscription: 'projects/p/subscriptions/s',
		});
		const { item, requests } = await deliver({
			body,
			headers: payment.signWithTestSecret('googlePlay', body),
		});
		expect(requests.some(({ url }) => url.includes('/purchases/subscriptionsv2/tokens/'))).toBe(
			true,
		);
		expect(item).toMatchObject({
			eventType: 'SUBSCRIPTION_RENEWED',
			eventId: 'm_renew_1',
			kind: 'purchase',
			transactionId: 'GPA.3300-0000-0000-00001..1',
			amountMinor: 499,
			currency: 'EUR',
			userId: 'user_2002',
		});
	});

	it.each([
		["a license tester's", { purchaseType: 0 }],
		['a pending', { purchaseState: 2 }],
	])('%s purchase is no purchase (kind other)', async (_c, change) => {
		const event = payment.sampleEvent('googlePlay', 'purchase', { transactionId: 'GPA.test.1' });
		Object.assign((event.playApi as { purchase: IDataObject }).purchase, change);
		const { body } = payment.encodeEvent('googlePlay', event);
		const { item } = await deliver({
			body,
			headers: payment.signWithTestSecret('googlePlay', body),
		});
		expect(item).toMatchObject({ kind: 'other', transactionId: 'GPA.test.1' });
	});

	it("caches Google's keys and the access token across pushes", async () => {
		await deliver(push('purchase', { transactionId: 'GPA.cache.1' }));
		const { requests, item } = await deliver(push('purchase', { transactionId: 'GPA.cache.2' }));
		expect(item?.transactionId).toBe('GPA.cache.2');
		expect(requests.map(({ url }) => url).filter((url) => /certs|token$/.test(url))).toEqual([]);
	});

	it('a full refund, and two halves with their running total, from orders.get', async () => {
		const full = await deliver(push('refund', { transactionId: 'GPA.r.1', amountMinor: 2590 }));
		expect(full.item).toMatchObject({
			kind: 'refund',
			refundType: 'full',
			refundReason: 'refund',
			transactionId: 'GPA.r.1',
			amountMinor: 2590,
			refundedTotalMinor: 2590,
			paidMinor: 2590,
		});
		const half = { transactionId: 'GPA.r.2', amountMinor: 2590, refundedMinor: 1295 };
		const first = await deliver(push('refund', { ...half, refundedTotalMinor: 1295 }));
		const second = await deliver(push('refund', { ...half, refundedTotalMinor: 2590 }));
		expect([
			first.item?.refundType,
			first.item?.amountMinor,
			first.item?.refundedTotalMinor,
		]).toEqual(['partial', 1295, 1295]);
		expect([
			second.item?.refundType,
			second.item?.amountMinor,
			second.item?.refundedTotalMinor,
		]).toEqual(['full', 1295, 2590]);
		expect([first.item?.refundId, second.item?.refundId]).toEqual([null, null]);
	});

	it('a chargeback (voidedReason 7) is a full reversal', async () => {
		const event = payment.sampleEvent('googlePlay', 'refund', { transactionId: 'GPA.cb.1' });
		(event.voidedPurchaseNotification as IDataObject).voidedReason = 7;
		const { body } = payment.encodeEvent('googlePlay', event);
		const { item } = await deliver({
			body,
			headers: payment.signWithTestSecret('googlePlay', body),
		});
		expect(item).toMatchObject({ kind: 'refund', refundType: 'full', refundReason: 'chargeback' });
	});

	it('a test notification is answered 200 and emits nothing by default', async () => {
		const { body } = payment.encodeEvent('googlePlay', payment.SAMPLES.googlePlay.otherEvent);
		const fake = fakeWebhookContext({
			rawBody: body,
			secret: '',
			headers: payment.signWithTestSecret('googlePlay', body),
			parameters: { provider: 'googlePlay', ...signer.nodeParameters },
			otherCredentials: { googlePlayApi: API },
			httpRequest: async () => ({
				statusCode: 200,
				headers: {},
				body: Buffer.from(
					JSON.stringify(
						emulation.answer({
							method: 'GET',
							path: '/oauth2/v3/certs',
							headers: {},
							body: Buffer.alloc(0),
						}).body,
					),
				),
			}),
		});
		const defaults = Object.keys(googlePlay.events);
		const result = await answerDelivery(fake.context, googlePlay, {
			...SETTINGS,
			events: defaults,
		});
		expect(defaults).not.toContain('TEST_NOTIFICATION');
		expect(result).toEqual({
			webhookResponse: { received: true, ignored: 'TEST_NOTIFICATION is not selected' },
		});
	});

	it.each(
		(
			signer.badDeliveries?.(
				(name) => push('purchase', { transactionId: `GPA.bad.${name}` }).body,
				signer.secret,
			) ?? []
		).map((bad) => [bad.name, bad] as const),
	)('%s: refused, the Play Developer API not asked', async (_name, bad) => {
		const { result, fake, requests } = await deliver(bad);
		expect(result).toEqual({ noWebhookResponse: true });
		expect([401, 400]).toContain(fake.sent[0].status);
		expect(
			requests.filter(({ url }) => url.includes('androidpublisher') || url.endsWith('/token')),
		).toEqual([]);
	});

	it("a key Google's token endpoint refuses: 503, the key in no log line", async () => {
		const account = JSON.parse(emulation.serviceAccountJson()) as Record<string, string>;
		account.private_key = generateKeyPairSync('rsa', { modulusLength: 2048 })
			.privateKey.export({ type: 'pkcs8', format: 'pem' })
			.toString();
		const sent = push('purchase', { transactionId: 'GPA.badkey.1' });
		const { fake } = await deliver(sent, { ...API, privateKeyJson: JSON.stringify(account) });
		expect(fake.sent).toEqual([
			{ status: 503, body: { error: 'Temporarily unavailable: retry later' } },
		]);
		expect(fake.logged[0].message).toContain("Google's token endpoint answered 400");
		expect(JSON.stringify(fake.logged)).not.toMatch(/PRIVATE KEY|ya29\./);
	});

	it('the API failing: 503 with Retry-After, nothing emitted', async () => {
		const failing = signer.failingDelivery?.('GPA.fail.1');
		if (failing === undefined) throw new Error('the signer has no failing delivery');
		const { result, fake } = await deliver(failing);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(fake.sent).toEqual([
			{ status: 503, body: { error: 'Temporarily unavailable: retry later' } },
		]);
		expect(fake.headersSet).toEqual({ 'Retry-After': '30' });
		expect(fake.logged[0].message).toContain('the Play Developer API answered 500');
	});
});

describe(scenario('paymentWebhook.googlePlay.endpoints'), () => {
	it("pins Google's hosts; an override only on the loopback, and it is visible", () => {
		expect(endpointsOf({})).toMatchObject({
			override: null,
			endpoints: { keys: 'https://www.googleapis.com/oauth2/v3/certs' },
		});
		expect(endpointsOf({ googleEndpoints: 'https://evil.example/google' })).toHaveProperty(
			'problem',
		);
		expect(endpointsOf({ googleEndpoints: 'http://127.0.0.1.evil.example/x' })).toHaveProperty(
			'problem',
		);
		expect(endpointsOf({ googleEndpoints: `${BASE}/` })).toMatchObject({ override: BASE });
		expect(googlePlay.replacedRoot?.(payment.testSecretsOf('googlePlay'), API)).toMatchObject({
			subject: `the keys at ${BASE}/oauth2/v3/certs`,
			field: 'Google Endpoints (Tests Only)',
		});
		expect(googlePlay.replacedRoot?.(payment.testSecretsOf('googlePlay'), {})).toBeNull();
	});

	it('a credential whose endpoints are elsewhere stops every push as a set-up error, fetching nothing', async () => {
		const sent = push('purchase', { transactionId: 'GPA.elsewhere.1' });
		await expect(
			deliver(sent, { ...API, googleEndpoints: 'https://attacker.example' }),
		).rejects.toThrow(/loopback/);
	});
});
