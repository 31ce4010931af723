/**
 * Alipay asynchronous notifications (nodes/PaymentWebhookTrigger/providers/alipay): forms made by
 * the test signer (support/payment/signers/alipay.js), which Alipay's own SDK (`alipay-sdk`,
 * `checkNotifySignV2`) verifies; what the order and the percent-encoding of the form's bytes may
 * and may not change; every bad kind refused with 401 or 400.
 */
import { generateKeyPairSync } from 'node:crypto';

import { AlipaySdk } from 'alipay-sdk';
import type { IDataObject } from 'n8n-workflow';

import { paymentEventItem } from '../../nodes/PaymentWebhookTrigger/events';
import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import { providerOf } from '../../nodes/PaymentWebhookTrigger/providers';
import alipaySamples from '../../nodes/PaymentWebhookTrigger/providers/alipay/samples';
import {
	alipaySecretProblem,
	APP_ID_PARAMETER,
	formFields,
	signedContent,
	verifyAlipay,
} from '../../nodes/PaymentWebhookTrigger/providers/alipay/alipay';
import type { DeliveryRequest } from '../../nodes/PaymentWebhookTrigger/provider';
import { fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';
import { scenario } from '../../support/scenarios';
import { sampleEvent, withSigningSecret } from '../../support/payment/paymentSignatures';
import { newRsaKeyPair } from '../../support/payment/signer';
import {
	contentToSign,
	formBody,
	javaUrlEncode,
	publicKeyBase64,
	signFields,
} from '../../support/payment/signers/alipay';

/** An app's Alipay key pair (RSA 2048, newRsaKeyPair), and the samples' App ID. */
function testApp() {
	const { privateKey, publicKey } = newRsaKeyPair();
	return {
		privateKey,
		publicKey,
		publicKeyBase64: publicKeyBase64(privateKey),
		appId: alipaySamples.appId,
	};
}

/** The sample purchase and refund of one order, as Alipay's documentation shows them. */
const order = { transactionId: 'ali_order_1001', amountMinor: 9900 };
const samples = {
	purchase: sampleEvent('alipay', 'purchase', order) as Record<string, string>,
	refund: sampleEvent('alipay', 'refund', order) as Record<string, string>,
};

const app = testApp();
const stranger = testApp();

const secretsOf = (publicKey: string) => ({ ...withSigningSecret(''), publicKey });

function request(
	rawBody: string | Buffer,
	changes: Partial<DeliveryRequest> = {},
): DeliveryRequest {
	return {
		rawBody: Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8'),
		headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
		secrets: secretsOf(app.publicKeyBase64),
		settings: { [APP_ID_PARAMETER]: app.appId },
		toleranceSeconds: 300,
		nowSeconds: 1_764_000_000,
		...changes,
	};
}

/** The purchase sample signed by the app's Alipay key (or `privateKey`), as a form body. */
const signedPurchase = (
	fields: Record<string, string> = samples.purchase,
	privateKey = app.privateKey,
) => signFields(fields, privateKey);

const refusal = (status: 400 | 401, reason: RegExp) => ({
	valid: false,
	status,
	reason: expect.stringMatching(reason),
});

describe(scenario('paymentWebhook.alipay.sdkAccepts'), () => {
	it("checkNotifySignV2 accepts the signer's fields under the bare base64 key Alipay's console shows", () => {
		const sdk = new AlipaySdk({
			appId: app.appId,
			privateKey: generateKeyPairSync('rsa', {
				modulusLength: 2048,
				privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
				publicKeyEncoding: { type: 'spki', format: 'pem' },
			}).privateKey,
			alipayPublicKey: app.publicKeyBase64,
		});
		for (const fields of [samples.purchase, samples.refund]) {
			// As a web framework hands the form over: each field decoded once.
			const posted = Object.fromEntries(
				new URLSearchParams(formBody(signFields(fields, app.privateKey))),
			);
			expect(sdk.checkNotifySignV2(posted)).toBe(true);
			expect(sdk.checkNotifySignV2({ ...posted, total_amount: '0.01' })).toBe(false);
		}
	});

	it("the package's signed text is the signer's, written apart from it", () => {
		const fields = formFields(Buffer.from(formBody(signedPurchase())));
		expect(fields).not.toBeNull();
		expect(signedContent(fields ?? new Map())).toBe(contentToSign(samples.purchase));
	});
});

describe(scenario('paymentWebhook.alipay.verify'), () => {
	it('accepts the notification and hands on its fields decoded', () => {
		const signed = signedPurchase();
		expect(verifyAlipay(request(formBody(signed)))).toEqual({
			valid: true,
			// notify_time 2026-11-24 08:00:06 in UTC+8
			signedAt: Date.UTC(2026, 10, 24, 0, 0, 6) / 1000,
			messageId: samples.purchase.notify_id,
			body: signed,
		});
	});

	it('takes the public key as a PEM too', () => {
		const pem = request(formBody(signedPurchase()), { secrets: secretsOf(app.publicKey) });
		expect(verifyAlipay(pem).valid).toBe(true);
	});

	it('accepts the form reordered or percent-encoded otherwise: Alipay signs the sorted decoded values', () => {
		const signed = signedPurchase();
		const reordered = formBody(Object.fromEntries(Object.entries(signed).reverse()));
		// %20 for + and lower-case hex decode to the same values.
		const reencoded = formBody(signed)
			.replace(/\+/g, '%20')
			.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
		for (const body of [reordered, reencoded]) {
			expect(body).not.toBe(formBody(signed));
			expect(verifyAlipay(request(body))).toMatchObject({ valid: true, body: signed });
		}
	});

	it('verifies the exact bytes: a value re-encoded into another value is refused', () => {
		const body = formBody(signedPurchase({ ...samples.purchase, subject: 'Pro 1+1 年度订阅' }));
		expect(verifyAlipay(request(body)).valid).toBe(true);
		// The literal + (%2B) sent bare reads as a space; base64's + in sign likewise.
		expect(verifyAlipay(request(body.replace('1%2B1', '1+1')))).toEqual(
			refusal(401, /does not match/),
		);
		// A signature holds a + in all but about 1 in 200 keys' cases: sign notifications until one does.
		const withPlus = Array.from({ length: 20 }, (_, i) =>
			formBody(
				signedPurchase({ ...samples.purchase, notify_id: `${samples.purchase.notify_id}${i}` }),
			),
		).find((form) => /sign=[^&]*%2B/.test(form));
		const sign = (withPlus ?? '').replace(/sign=[^&]+/, (field) => field.replace(/%2B/g, '+'));
		expect(sign).toMatch(/sign=[^&]*\+/);
		expect(verifyAlipay(request(sign))).toEqual(refusal(401, /does not match/));
	});

	it('leaves out fields without a value, as Alipay does when it signs', () => {
		const body = `${formBody(signedPurchase())}&extra_field=`;
		expect(verifyAlipay(request(body))).toMatchObject({ valid: true });
	});
});

describe(scenario('paymentWebhook.alipay.refusals'), () => {
	it('refuses a notification signed by another key', () => {
		const body = formBody(signedPurchase(samples.purchase, stranger.privateKey));
		expect(verifyAlipay(request(body))).toEqual(refusal(401, /does not match/));
	});

	it('refuses a tampered field, an added field and a removed one', () => {
		const body = formBody(signedPurchase());
		const tampered = body.replace('total_amount=99.00', 'total_amount=9900.00');
		const added = `${body}&refund_fee=99.00`;
		const removed = body.replace(/&passback_params=[^&]*/, '');
		for (const changed of [tampered, added, removed]) {
			expect(changed).not.toBe(body);
			expect(verifyAlipay(request(changed))).toEqual(refusal(401, /does not match/));
		}
	});

	it('refuses a notification for another app', () => {
		const body = formBody(signedPurchase({ ...samples.purchase, app_id: '2021000117600999' }));
		expect(verifyAlipay(request(body))).toEqual(refusal(401, /another app/));
	});

	it('refuses an unsigned form, an RSA (SHA-1) signature type, and a form in another charset', () => {
		const unsigned = formBody(signedPurchase()).replace(/&sign=[^&]+/, '');
		expect(verifyAlipay(request(unsigned))).toEqual(refusal(401, /missing sign/));
		const sha1 = formBody({ ...signedPurchase(), sign_type: 'RSA' });
		expect(verifyAlipay(request(sha1))).toEqual(refusal(401, /RSA2/));
		const gbk = formBody(signedPurchase({ ...samples.purchase, charset: 'GBK' }));
		expect(verifyAlipay(request(gbk))).toEqual(refusal(400, /UTF-8/));
	});

	it('refuses a body that is no UTF-8 form, or names a field twice, with 400', () => {
		const body = formBody(signedPurchase());
		const bytes = Buffer.concat([Buffer.from(`${body}&subject=`), Buffer.from([0xc4, 0xea])]);
		expect(verifyAlipay(request(bytes))).toEqual(refusal(400, /UTF-8 form/));
		const twice = `${body}&out_trade_no=${javaUrlEncode('ali_order_2002')}`;
		expect(verifyAlipay(request(twice))).toEqual(refusal(400, /each field once/));
	});

	it('never quotes the key, the fields or the signature in a reason', () => {
		const body = formBody(signedPurchase({ ...samples.purchase, app_id: '2021000117600999' }));
		const verification = verifyAlipay(request(body));
		if (verification.valid) throw new Error('expected a refusal');
		expect(verification.reason).not.toMatch(/2021000117600999|ali_order_1001/);
	});
});

describe(scenario('paymentWebhook.alipay.credential'), () => {
	it('names what is wrong with the credential, and a missing App ID stops every delivery', () => {
		expect(alipaySecretProblem(secretsOf(app.publicKeyBase64))).toBeNull();
		expect(alipaySecretProblem(secretsOf(''))).toMatch(/Public Key is empty/);
		expect(alipaySecretProblem(secretsOf(app.privateKey))).toMatch(/private key/);
		expect(alipaySecretProblem(secretsOf('MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'))).toMatch(
			/not an RSA/,
		);
		expect(verifyAlipay(request(formBody(signedPurchase()), { settings: {} }))).toMatchObject({
			valid: false,
			unusableSecret: true,
			reason: expect.stringMatching(/App ID/),
		});
	});
});

/** The item of a verified notification of `fields`. */
function itemOf(fields: Record<string, string>) {
	const verification = verifyAlipay(request(formBody(signedPurchase(fields))));
	if (!verification.valid || verification.body === undefined) throw new Error('not verified');
	const body = verification.body as IDataObject;
	const eventType = providerOf('alipay').eventType(body);
	if (eventType === null) throw new Error('no event type');
	return paymentEventItem('alipay', eventType, body, {
		signedAt: verification.signedAt,
		messageId: verification.messageId,
		userIdMetadataKey: 'user_id',
	});
}

describe(scenario('paymentWebhook.alipay.items'), () => {
	it('TRADE_SUCCESS and TRADE_FINISHED are purchases of total_amount yuan keyed by out_trade_no', () => {
		for (const status of ['TRADE_SUCCESS', 'TRADE_FINISHED']) {
			expect(itemOf({ ...samples.purchase, trade_status: status })).toMatchObject({
				provider: 'alipay',
				eventType: status,
				eventId: samples.purchase.notify_id,
				kind: 'purchase',
				transactionId: 'ali_order_1001',
				amount: '99.00',
				amountMinor: 9900,
				currency: 'CNY',
				userId: 'user_1001',
				missing: ['metadata'],
			});
		}
		expect(itemOf({ ...samples.purchase, total_amount: '0.5' })).toMatchObject({ amountMinor: 50 });
	});

	it('the user ID is passback_params URL-decoded, as the merchant encoded it', () => {
		const passback = encodeURIComponent('用户 42&plan=pro');
		expect(itemOf({ ...samples.purchase, passback_params: passback }).userId).toBe(
			'用户 42&plan=pro',
		);
		expect(itemOf({ ...samples.purchase, passback_params: '100%' }).userId).toBe('100%');
	});

	it('a notification with refund_fee and gmt_refund is a refund, full when refund_fee equals total_amount', () => {
		expect(itemOf(samples.refund)).toMatchObject({
			eventType: 'REFUND',
			kind: 'refund',
			refundType: 'full',
			transactionId: 'ali_order_1001',
			amountMinor: 9900,
			currency: 'CNY',
			userId: 'user_1001',
		});
		const partial = { ...samples.refund, trade_status: 'TRADE_SUCCESS', refund_fee: '30.00' };
		expect(itemOf(partial)).toMatchObject({
			eventType: 'REFUND',
			refundType: 'partial',
			amount: '30.00',
		});
	});

	it('another trade_status is an event of its own, no purchase', () => {
		const closed = { ...samples.purchase, trade_status: 'TRADE_CLOSED' };
		expect(itemOf(closed)).toMatchObject({ eventType: 'TRADE_CLOSED', kind: 'other' });
	});
});

describe(scenario('paymentWebhook.alipay.answers'), () => {
	const trigger = new PaymentWebhookTrigger();
	const fake = (body: string, parameters: IDataObject = {}) =>
		fakeWebhookContext({
			rawBody: body,
			headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
			secret: '',
			credential: { publicKey: app.publicKeyBase64 },
			parameters: {
				provider: 'alipay',
				events: ['TRADE_SUCCESS', 'REFUND'],
				responseMode: 'onReceived',
				options: {},
				[APP_ID_PARAMETER]: app.appId,
				...parameters,
			},
		});
	const success = { status: 200, body: 'success', contentType: 'text/plain' };

	it('answers success as plain text, then starts the item, when it answers at once', async () => {
		const accepted = fake(formBody(signedPurchase()));
		const result = await trigger.webhook.call(accepted.context);
		expect(accepted.sent).toEqual([success]);
		expect(result.noWebhookResponse).toBe(true);
		expect(result.workflowData?.[0].map(({ json }) => json.kind)).toEqual(['purchase']);
	});

	it('answers success to a notification that starts nothing, so that Alipay stops resending', async () => {
		const ignored = fake(
			formBody(signedPurchase({ ...samples.purchase, trade_status: 'TRADE_CLOSED' })),
		);
		expect(await trigger.webhook.call(ignored.context)).toEqual({ noWebhookResponse: true });
		expect(ignored.sent).toEqual([success]);
	});

	it('leaves the answer to the workflow when the Respond to Webhook node answers', async () => {
		const later = fake(formBody(signedPurchase()), { responseMode: 'responseNode' });
		const result = await trigger.webhook.call(later.context);
		expect(later.sent).toEqual([]);
		expect(result.workflowData?.[0]).toHaveLength(1);
	});

	it('answers fail with a 4xx to a refused notification, starting nothing', async () => {
		const forged = fake(formBody(signedPurchase(samples.purchase, stranger.privateKey)));
		expect(await trigger.webhook.call(forged.context)).toEqual({ noWebhookResponse: true });
		expect(forged.sent).toEqual([{ status: 401, body: 'fail', contentType: 'text/plain' }]);
		const malformed = fake(`${formBody(signedPurchase())}&app_id=2`);
		await trigger.webhook.call(malformed.context);
		expect(malformed.sent).toEqual([{ status: 400, body: 'fail', contentType: 'text/plain' }]);
	});
});
