/**
 * WeChat Pay API v3 notifications (nodes/PaymentWebhookTrigger/providers/wechatPay): deliveries
 * made by the test signer (support/payment/signers/wechatPay.js), which WeChat Pay's SDK on npm
 * (`wechatpay-node-v3`) verifies and decrypts; every bad kind refused with 401 or 400.
 */
import { NodeOperationError, type IDataObject } from 'n8n-workflow';
import Pay from 'wechatpay-node-v3';

import { paymentEventItem } from '../../nodes/PaymentWebhookTrigger/events';
import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import {
	MERCHANT_ID_PARAMETER,
	verifyWechatPay,
	wechatPaySecretProblem,
} from '../../nodes/PaymentWebhookTrigger/providers/wechatPay/wechatPay';
import type { DeliveryRequest } from '../../nodes/PaymentWebhookTrigger/provider';
import { fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';
import { scenario } from '../../support/scenarios';
import { sampleEvent, withSigningSecret } from '../../support/payment/paymentSignatures';
import {
	notificationBody as sealedNotification,
	signNotification as signedHeaders,
	testMerchant,
} from '../../support/payment/signers/wechatPay';

type WechatEvent = 'TRANSACTION.SUCCESS' | 'REFUND.SUCCESS';
/** The sample purchase and refund of one order, as WeChat Pay's documentation shows them. */
const order = { transactionId: 'wx_order_1001', amountMinor: 9900, currency: 'CNY' };
const SAMPLES = {
	'TRANSACTION.SUCCESS': sampleEvent('wechatPay', 'purchase', order),
	'REFUND.SUCCESS': sampleEvent('wechatPay', 'refund', order),
};
const samples = {
	purchase: { resource: SAMPLES['TRANSACTION.SUCCESS'].resource as Record<string, unknown> },
	refund: {
		resource: SAMPLES['REFUND.SUCCESS'].resource as Record<string, unknown> & {
			amount: Record<string, unknown>;
		},
	},
};

/** The body WeChat Pay posts for `resource` as an event of `eventType`, sealed under `apiV3Key`. */
const notificationBody = (eventType: WechatEvent, resource: object, apiV3Key: string) =>
	sealedNotification({ ...SAMPLES[eventType], resource }, apiV3Key);

const NOW = 1_764_000_000;
const TOLERANCE = 300;
const merchant = testMerchant();
const stranger = testMerchant();

/** The headers WeChat Pay sends with `body`, signed by `merchant`'s key (or `privateKey`) at NOW. */
const signed = (body: string, { privateKey = merchant.privateKey, timestamp = NOW } = {}) =>
	signedHeaders(body, privateKey, merchant.publicKeyId, timestamp);

/**
 * A notification to `merchant`: the sample purchase's resource (or `resource`, as `eventType`),
 * sealed with its APIv3 key and signed by its key at NOW, unless said.
 */
function notification({
	eventType = 'TRANSACTION.SUCCESS',
	resource = samples.purchase.resource,
	apiV3Key = merchant.apiV3Key,
	...signing
}: {
	eventType?: WechatEvent;
	resource?: object;
	apiV3Key?: string;
	privateKey?: string;
	timestamp?: number;
} = {}) {
	const body = notificationBody(eventType, resource, apiV3Key);
	return { body, headers: signed(body, signing) };
}

const secretsOf = (m = merchant) => ({
	...withSigningSecret(''),
	publicKey: m.publicKey,
	publicKeyId: m.publicKeyId,
	decryptionSecret: m.apiV3Key,
});

function request(
	rawBody: string,
	headers: Record<string, string>,
	changes: Partial<DeliveryRequest> = {},
): DeliveryRequest {
	return {
		rawBody: Buffer.from(rawBody, 'utf8'),
		headers,
		secrets: secretsOf(),
		settings: { [MERCHANT_ID_PARAMETER]: merchant.merchantId },
		toleranceSeconds: TOLERANCE,
		nowSeconds: NOW,
		...changes,
	};
}

const refusal = (status: 400 | 401, reason: RegExp) => ({
	valid: false,
	status,
	reason: expect.stringMatching(reason),
});

describe(scenario('paymentWebhook.wechatPay.sdkAccepts'), () => {
	it('verifySign accepts the signature and decipher_gcm opens the resource', async () => {
		const { body, headers } = notification();
		const pay = new Pay({
			appid: 'wxd678efh567hg6787',
			mchid: merchant.merchantId,
			publicKey: Buffer.from(merchant.publicKey),
			privateKey: Buffer.from(merchant.privateKey),
			serial_no: merchant.publicKeyId,
			key: merchant.apiV3Key,
		});
		// The SDK looks the key up by Wechatpay-Serial among the keys it has fetched (a protected table).
		(Pay as unknown as { certificates: Record<string, string> }).certificates[
			merchant.publicKeyId
		] = merchant.publicKey;
		const verified = await pay.verifySign({
			timestamp: headers['wechatpay-timestamp'],
			nonce: headers['wechatpay-nonce'],
			body,
			serial: headers['wechatpay-serial'],
			signature: headers['wechatpay-signature'],
		});
		expect(verified).toBe(true);
		const { resource } = JSON.parse(body) as {
			resource: { ciphertext: string; associated_data: string; nonce: string };
		};
		expect(
			pay.decipher_gcm(
				resource.ciphertext,
				resource.associated_data,
				resource.nonce,
				merchant.apiV3Key,
			),
		).toEqual(samples.purchase.resource);
	});
});

describe(scenario('paymentWebhook.wechatPay.verify'), () => {
	it('accepts the notification and hands on its resource decrypted', () => {
		const { body, headers } = notification();
		const verification = verifyWechatPay(request(body, headers));
		expect(verification).toEqual({
			valid: true,
			signedAt: NOW,
			messageId: JSON.parse(body).id,
			body: { ...JSON.parse(body), resource: samples.purchase.resource },
		});
	});

	it('accepts a timestamp just inside the tolerance, either way', () => {
		for (const timestamp of [NOW - TOLERANCE, NOW + TOLERANCE]) {
			const { body, headers } = notification({ timestamp });
			expect(verifyWechatPay(request(body, headers)).valid).toBe(true);
		}
	});

	it('takes the public key with its PEM lines joined into one, as a pasted field may hold it', () => {
		const { body, headers } = notification();
		const oneLine = { ...secretsOf(), publicKey: merchant.publicKey.replace(/\n/g, ' ') };
		expect(verifyWechatPay(request(body, headers, { secrets: oneLine })).valid).toBe(true);
	});
});

describe(scenario('paymentWebhook.wechatPay.refusals'), () => {
	it('refuses a notification signed by another key', () => {
		const { body, headers } = notification({ privateKey: stranger.privateKey });
		expect(verifyWechatPay(request(body, headers))).toEqual(refusal(401, /does not match/));
	});

	it('refuses a body changed after signing, even one re-serialized with the same content', () => {
		const { body, headers } = notification();
		const tampered = body.replace('"TRANSACTION.SUCCESS"', '"REFUND.SUCCESS"');
		const reserialized = JSON.stringify(JSON.parse(body), null, 1);
		for (const changed of [tampered, reserialized]) {
			expect(verifyWechatPay(request(changed, headers))).toEqual(refusal(401, /does not match/));
		}
	});

	it('refuses a replay past the tolerance, and a timestamp as far in the future', () => {
		for (const timestamp of [NOW - TOLERANCE - 1, NOW + TOLERANCE + 1]) {
			const { body, headers } = notification({ timestamp });
			expect(verifyWechatPay(request(body, headers))).toMatchObject({ valid: false });
		}
	});

	it('refuses a Wechatpay-Serial other than the Public Key ID (a platform certificate serial)', () => {
		const { body, headers } = notification();
		const serial = { ...headers, 'wechatpay-serial': '5157F09EFDC096DE15EBE81A47057A7232F1B8E1' };
		expect(verifyWechatPay(request(body, serial))).toEqual(refusal(401, /Public Key ID/));
	});

	it('refuses a notification for another merchant', () => {
		const { body, headers } = notification({
			resource: { ...samples.purchase.resource, mchid: '1900000999' },
		});
		expect(verifyWechatPay(request(body, headers))).toEqual(refusal(401, /another merchant/));
	});

	it('refuses a resource that does not decrypt with the APIv3 key', () => {
		const { body, headers } = notification({ apiV3Key: stranger.apiV3Key });
		expect(verifyWechatPay(request(body, headers))).toEqual(refusal(401, /does not decrypt/));
	});

	it('refuses a resource whose associated data was changed before signing', () => {
		const body = JSON.parse(notification().body);
		body.resource.associated_data = 'refund';
		const raw = JSON.stringify(body);
		expect(verifyWechatPay(request(raw, signed(raw)))).toEqual(refusal(401, /does not decrypt/));
	});

	it('refuses a signed body that is no notification with a sealed resource with 400', () => {
		const bodies = [
			'[]',
			JSON.stringify({ id: 'EV-1', event_type: 'TRANSACTION.SUCCESS' }),
			JSON.stringify({
				resource: { ...JSON.parse(notification().body).resource, algorithm: 'AES' },
			}),
			JSON.stringify({
				resource: { algorithm: 'AEAD_AES_256_GCM', nonce: 'n', ciphertext: 'AA==' },
			}),
		];
		for (const body of bodies) {
			const headers = signed(body);
			expect(verifyWechatPay(request(body, headers))).toMatchObject({ valid: false, status: 400 });
		}
	});

	it('refuses a notification that lacks any of the four headers', () => {
		const { body, headers } = notification();
		for (const name of [
			'wechatpay-timestamp',
			'wechatpay-nonce',
			'wechatpay-signature',
			'wechatpay-serial',
		]) {
			const rest = Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
			expect(verifyWechatPay(request(body, rest))).toEqual(refusal(401, /^missing Wechatpay-/));
		}
	});

	it("refuses WeChat Pay's signature probe (WECHATPAY/SIGNTEST/…)", () => {
		const { body, headers } = notification();
		const probe = {
			...headers,
			'wechatpay-signature': `WECHATPAY/SIGNTEST/${headers['wechatpay-signature']}`,
		};
		expect(verifyWechatPay(request(body, probe))).toEqual(refusal(401, /does not match/));
	});

	it('never quotes the keys, the body or a header value in a reason', () => {
		const { body, headers } = notification({
			resource: { ...samples.purchase.resource, mchid: '1900000999' },
		});
		const verification = verifyWechatPay(request(body, headers));
		if (verification.valid) throw new Error('expected a refusal');
		for (const secret of [
			merchant.apiV3Key,
			merchant.publicKeyId,
			headers['wechatpay-nonce'],
			'1900000999',
		]) {
			expect(verification.reason).not.toContain(secret);
		}
	});
});

describe(scenario('paymentWebhook.wechatPay.credential'), () => {
	it('names what is wrong with the credential, and a setup error stops every delivery', () => {
		const { privateKey } = stranger;
		expect(wechatPaySecretProblem(secretsOf())).toBeNull();
		expect(wechatPaySecretProblem({ ...secretsOf(), publicKey: '' })).toMatch(
			/Public Key is empty/,
		);
		expect(wechatPaySecretProblem({ ...secretsOf(), publicKey: privateKey })).toMatch(
			/private key/,
		);
		expect(wechatPaySecretProblem({ ...secretsOf(), publicKey: 'not a key' })).toMatch(
			/not an RSA/,
		);
		expect(wechatPaySecretProblem({ ...secretsOf(), publicKeyId: ' ' })).toMatch(/Public Key ID/);
		expect(wechatPaySecretProblem({ ...secretsOf(), decryptionSecret: 'short' })).toMatch(/APIv3/);
		const { body, headers } = notification();
		expect(verifyWechatPay(request(body, headers, { settings: {} }))).toMatchObject({
			valid: false,
			unusableSecret: true,
			reason: expect.stringMatching(/Merchant ID/),
		});
	});
});

/** The item of a verified notification of `resource`. */
function itemOf(eventType: WechatEvent, resource: object) {
	const { body, headers } = notification({ eventType, resource });
	const verification = verifyWechatPay(request(body, headers));
	if (!verification.valid || verification.body === undefined) throw new Error('not verified');
	return paymentEventItem('wechatPay', eventType, verification.body as IDataObject, {
		signedAt: verification.signedAt,
		messageId: verification.messageId,
		userIdMetadataKey: 'user_id',
	});
}

describe(scenario('paymentWebhook.wechatPay.items'), () => {
	it('TRANSACTION.SUCCESS is a purchase of amount.total fen keyed by out_trade_no, the user in attach', () => {
		expect(itemOf('TRANSACTION.SUCCESS', samples.purchase.resource)).toMatchObject({
			provider: 'wechatPay',
			kind: 'purchase',
			transactionId: 'wx_order_1001',
			amount: '99.00',
			amountMinor: 9900,
			currency: 'CNY',
			userId: 'user_1001',
			signedAt: new Date(NOW * 1000).toISOString(),
			missing: ['metadata'],
		});
		const unpaid = { ...samples.purchase.resource, trade_state: 'NOTPAY' };
		expect(itemOf('TRANSACTION.SUCCESS', unpaid).kind).toBe('other');
	});

	it('REFUND.SUCCESS is a refund of the same order, full when amount.refund equals amount.total', () => {
		const { resource } = samples.refund;
		expect(itemOf('REFUND.SUCCESS', resource)).toMatchObject({
			kind: 'refund',
			refundType: 'full',
			transactionId: 'wx_order_1001',
			amountMinor: 9900,
			currency: 'CNY',
			userId: null,
		});
		const partial = { ...resource, amount: { ...resource.amount, refund: 3000 } };
		expect(itemOf('REFUND.SUCCESS', partial)).toMatchObject({
			refundType: 'partial',
			amount: '30.00',
		});
		const abnormal = { ...resource, refund_status: 'ABNORMAL' };
		expect(itemOf('REFUND.SUCCESS', abnormal).kind).toBe('other');
	});
});

describe(scenario('paymentWebhook.wechatPay.answers'), () => {
	const trigger = new PaymentWebhookTrigger();
	const fake = (body: string, headers: Record<string, string>, merchantId = merchant.merchantId) =>
		fakeWebhookContext({
			rawBody: body,
			headers,
			secret: '',
			credential: {
				publicKey: merchant.publicKey,
				publicKeyId: merchant.publicKeyId,
				decryptionSecret: merchant.apiV3Key,
			},
			parameters: {
				provider: 'wechatPay',
				events: ['TRANSACTION.SUCCESS', 'REFUND.SUCCESS'],
				responseMode: 'onReceived',
				options: {},
				[MERCHANT_ID_PARAMETER]: merchantId,
			},
		});
	const fresh = () => notification({ timestamp: Math.floor(Date.now() / 1000) });

	it("accepts with n8n's own answer and starts one item", async () => {
		const { body, headers } = fresh();
		const accepted = fake(body, headers);
		const result = await trigger.webhook.call(accepted.context);
		expect(accepted.sent).toEqual([]);
		expect(result.workflowData?.[0]).toHaveLength(1);
		expect(result.workflowData?.[0][0].json).toMatchObject({
			kind: 'purchase',
			userId: 'user_1001',
		});
	});

	it('refuses with its JSON code FAIL and a 4xx, so that WeChat Pay retries, starting nothing', async () => {
		const { body, headers } = fresh();
		const refused = fake(body.replace('"summary":"', '"summary":"!'), headers);
		expect(await trigger.webhook.call(refused.context)).toEqual({ noWebhookResponse: true });
		expect(refused.sent).toEqual([
			{ status: 401, body: { code: 'FAIL', message: 'Invalid notification signature' } },
		]);
		const otherMerchant = fake(body, headers, '1900000999');
		await trigger.webhook.call(otherMerchant.context);
		expect(otherMerchant.sent).toEqual([
			{ status: 401, body: { code: 'FAIL', message: 'Invalid notification signature' } },
		]);
	});

	it('an empty Merchant ID is a setup error naming it', async () => {
		const { body, headers } = fresh();
		const error = await trigger.webhook
			.call(fake(body, headers, ' ').context)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/Merchant ID/);
	});
});
