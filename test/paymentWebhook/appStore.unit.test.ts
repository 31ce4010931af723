/**
 * App Store Server Notifications V2 beyond the signature (providers/appStore/notification.ts and
 * readers.ts): what a delivery must be besides signed by Apple's chain, what the verified body
 * holds, and what each notification type becomes. Deliveries are signed by the test signer
 * (support/payment/appStoreChain.js), which appStoreChain.unit.test.ts proves against Apple's
 * own verifier.
 */
import { NodeOperationError } from 'n8n-workflow';

import { appStore } from '../../nodes/PaymentWebhookTrigger/providers/appStore/appStore';
import {
	checkNotification,
	trustedRoot,
	type AppStoreSettings,
} from '../../nodes/PaymentWebhookTrigger/providers/appStore/notification';
import {
	minorFromMilli,
	purchaseFields,
	refundFields,
} from '../../nodes/PaymentWebhookTrigger/providers/appStore/readers';
import * as samplesModule from '../../nodes/PaymentWebhookTrigger/providers/appStore/samples';
import {
	createTestChain,
	notificationBody,
	signJws,
	type TestChain,
} from '../../support/payment/appStoreChain';
import { deliverToAppStoreTrigger } from './appStoreHarness';
import {
	badDeliveriesOf,
	encodeEvent,
	nodeParametersOf,
	sampleEvent,
	testSecretsOf,
	withSigningSecret,
} from '../../support/payment/paymentSignatures';
import { scenario } from '../../support/scenarios';

const { notifications: samples } = samplesModule;
const SETTINGS: AppStoreSettings = {
	bundleId: samplesModule.bundleId,
	environment: samplesModule.environment,
};

let chain: TestChain;
beforeAll(async () => {
	chain = await createTestChain();
});

function check(body: string, settings = SETTINGS) {
	const root = trustedRoot(chain.rootPem);
	if (root === null) throw new Error('the test root does not parse');
	return checkNotification(Buffer.from(body), root, settings);
}

/** The verified body of a sample signed now, or a failure naming the refusal. */
function verifiedBody(notification: Parameters<typeof notificationBody>[1]) {
	const verdict = check(notificationBody(chain, notification));
	if (!verdict.valid) throw new Error(`refused: ${verdict.reason}`);
	return verdict.body;
}

describe(scenario('paymentWebhook.appStore.notification'), () => {
	it.each([
		['not JSON', 'signedPayload=eyJ'],
		['JSON without signedPayload', '{"payload":"x"}'],
		['a signedPayload that is no string', '{"signedPayload":{"alg":"ES256"}}'],
	])('answers 400 for a body that is %s', (_, body) => {
		expect(check(body)).toEqual({
			valid: false,
			reason: 'the body is not {"signedPayload": …}',
			status: 400,
		});
	});

	it('answers 401 (no status) for a signedPayload that is no JWS or no ES256', () => {
		expect(check('{"signedPayload":"a.b"}')).toEqual({
			valid: false,
			reason: 'signedPayload: not a compact JWS',
		});
		const { signedPayload } = JSON.parse(notificationBody(chain, samples.oneTimeCharge));
		const [, payload, signature] = signedPayload.split('.');
		const header = Buffer.from(JSON.stringify({ alg: 'none', x5c: chain.x5c })).toString(
			'base64url',
		);
		expect(
			check(JSON.stringify({ signedPayload: [header, payload, signature].join('.') })),
		).toEqual({ valid: false, reason: 'signedPayload: the JWS algorithm is not ES256' });
		const twoCertificates = Buffer.from(
			JSON.stringify({ alg: 'ES256', x5c: chain.x5c.slice(0, 2) }),
		).toString('base64url');
		expect(
			check(JSON.stringify({ signedPayload: [twoCertificates, payload, signature].join('.') })),
		).toEqual({
			valid: false,
			reason: 'signedPayload: x5c does not hold three certificates (leaf, intermediate, root)',
		});
	});

	it('gives the decoded notification, its transaction and renewal info verified and decoded, signed at signedDate', () => {
		const signedDate = Date.parse('2026-11-20T08:00:00.250Z');
		const verdict = check(notificationBody(chain, { ...samples.subscribed, signedDate }));
		expect(verdict).toMatchObject({
			valid: true,
			signedAt: signedDate / 1000 - 0.25,
			body: {
				notificationType: 'SUBSCRIBED',
				subtype: 'INITIAL_BUY',
				notificationUUID: samples.subscribed.notificationUUID,
				signedDate,
				data: {
					bundleId: SETTINGS.bundleId,
					transactionInfo: { ...samples.subscribed.data.transactionInfo, signedDate },
					renewalInfo: { ...samples.subscribed.data.renewalInfo, signedDate },
				},
			},
		});
		const data = verdict.valid ? (verdict.body.data as Record<string, unknown>) : {};
		expect(typeof data.signedTransactionInfo).toBe('string');
	});

	it('refuses a well-signed notification whose transaction is for another app or environment', () => {
		for (const [field, value, reason] of [
			[
				'bundleId',
				'com.example.another',
				`the transaction is for another app than bundle ID ${SETTINGS.bundleId}`,
			],
			['environment', 'Production', 'the transaction is for another environment than Sandbox'],
		]) {
			const transactionInfo = { ...samples.oneTimeCharge.data.transactionInfo, [field]: value };
			const body = notificationBody(chain, {
				...samples.oneTimeCharge,
				data: { ...samples.oneTimeCharge.data, transactionInfo },
			});
			expect(check(body)).toEqual({ valid: false, reason });
		}
	});

	it('refuses renewal info of the other environment, and reads the app of a summary', () => {
		const renewalInfo = { ...samples.didRenew.data.renewalInfo, environment: 'Production' };
		const body = notificationBody(chain, {
			...samples.didRenew,
			data: { ...samples.didRenew.data, renewalInfo },
		});
		expect(check(body)).toEqual({
			valid: false,
			reason: 'the renewal info is for another environment than Sandbox',
		});
		// RENEWAL_EXTENSION's summary names the app where others have `data`.
		const summary = {
			bundleId: SETTINGS.bundleId,
			environment: 'Sandbox',
			requestIdentifier: 'r1',
		};
		const signedPayload = signJws(chain, {
			notificationType: 'RENEWAL_EXTENSION',
			subtype: 'SUMMARY',
			notificationUUID: 'summary-1',
			signedDate: Date.now(),
			summary,
		});
		expect(check(JSON.stringify({ signedPayload }))).toMatchObject({ valid: true });
		expect(check(JSON.stringify({ signedPayload }), { ...SETTINGS, bundleId: 'other' })).toEqual({
			valid: false,
			reason: 'the notification is for another app than bundle ID other',
		});
	});

	it('refuses a credential root that is no certificate', () => {
		expect(
			trustedRoot('-----BEGIN CERTIFICATE-----\nnot one\n-----END CERTIFICATE-----'),
		).toBeNull();
	});
});

describe(scenario('paymentWebhook.appStore.events'), () => {
	it.each([
		[9990, 'USD', 999],
		[1200000, 'JPY', 1200],
		[12345, 'KWD', 12345],
		// A prorated share need not fall on a cent: the nearest one.
		[1247.5, 'EUR', 125],
	])('reads %d milli-units of %s as %d in the smallest unit', (milli, currency, minor) => {
		expect(minorFromMilli(milli, currency)).toBe(minor);
	});

	it('reads purchases and refunds from the verified transaction', () => {
		const transaction = samples.oneTimeCharge.data.transactionInfo;
		expect(purchaseFields(verifiedBody(samples.oneTimeCharge))).toEqual({
			counts: true,
			transactionId: transaction.transactionId,
			amountMinor: 999,
			currency: 'USD',
			userId: transaction.appAccountToken,
			metadata: null,
		});
		expect(refundFields(verifiedBody(samples.refund))).toMatchObject({
			refundType: 'full',
			transactionId: transaction.transactionId,
			amountMinor: 999,
		});
		// 25 % (25000 milli-percent) of 4.99 EUR.
		expect(refundFields(verifiedBody(samples.refundProrated))).toMatchObject({
			refundType: 'partial',
			transactionId: samples.subscribed.data.transactionInfo.transactionId,
			amountMinor: 125,
			currency: 'EUR',
		});
	});
});

describe(scenario('paymentWebhook.appStore.provider'), () => {
	const NO_SECRETS = withSigningSecret('');
	const request = (rawBody: string, settings: Record<string, string>, rootCa = chain.rootPem) => ({
		rawBody: Buffer.from(rawBody),
		headers: {},
		secrets: { ...NO_SECRETS, rootCa },
		settings,
		toleranceSeconds: 300,
		nowSeconds: Math.floor(Date.now() / 1000),
	});
	const SANDBOX = { bundleId: SETTINGS.bundleId, environment: 'Sandbox' };

	it("needs no secret: Apple's pinned root when the Root Certificate is empty, else a CA certificate", () => {
		expect(appStore.secretProblem(NO_SECRETS)).toBeNull();
		expect(appStore.secretProblem({ ...NO_SECRETS, rootCa: chain.rootPem })).toBeNull();
		expect(appStore.secretProblem({ ...NO_SECRETS, signingSecret: 'whsec_x' })).toBe(
			'The Signing Secret is set: Apple App Store uses none',
		);
		expect(appStore.secretProblem({ ...NO_SECRETS, rootCa: 'MIIB…' })).toBe(
			'The Root Certificate is not a PEM certificate',
		);
		const leafPem = `-----BEGIN CERTIFICATE-----\n${chain.x5c[0]}\n-----END CERTIFICATE-----`;
		expect(appStore.secretProblem({ ...NO_SECRETS, rootCa: leafPem })).toBe(
			'The Root Certificate is not a CA certificate',
		);
	});

	it('verifies with its own parameters: the verified body, signedAt, no message ID', () => {
		const signedDate = Date.parse('2026-11-20T08:00:00Z');
		const body = notificationBody(chain, { ...samples.oneTimeCharge, signedDate });
		const verdict = appStore.verify(request(body, SANDBOX));
		expect(verdict).toMatchObject({ valid: true, signedAt: signedDate / 1000, messageId: null });
		expect(verdict.valid && verdict.body?.notificationUUID).toBe(
			samples.oneTimeCharge.notificationUUID,
		);
		expect(appStore.eventType(verdict.valid ? (verdict.body ?? {}) : {})).toBe('ONE_TIME_CHARGE');
	});

	it('takes an empty Bundle ID or an unknown Environment as a set-up error naming the parameter', () => {
		const body = notificationBody(chain, samples.oneTimeCharge);
		expect(appStore.verify(request(body, { ...SANDBOX, bundleId: ' ' }))).toEqual({
			valid: false,
			reason: 'The Bundle ID parameter is empty',
			unusableSecret: true,
		});
		expect(appStore.verify(request(body, { ...SANDBOX, environment: 'sandbox' }))).toEqual({
			valid: false,
			reason: 'The Environment parameter must be Production or Sandbox',
			unusableSecret: true,
		});
	});

	it("the signer's bad deliveries (as e2e sends them) are refused, its good one accepted", () => {
		const secrets = testSecretsOf('appStore');
		const settings = nodeParametersOf('appStore');
		const check = (body: string) => appStore.verify({ ...request(body, settings), secrets });
		const bodyFor = (name: string) =>
			encodeEvent('appStore', sampleEvent('appStore', 'purchase', { transactionId: `t_${name}` }))
				.body;
		expect(check(bodyFor('good'))).toMatchObject({ valid: true });
		// e2e asks the content type of an empty event: a notification without data signs too.
		expect(encodeEvent('appStore', {}).contentType).toBe('application/json');
		const bad = badDeliveriesOf('appStore', bodyFor, () => []);
		expect(bad.map(({ name, transactionId }) => [name, transactionId])).toEqual([
			['forged', 't_forged'],
			['tampered', 't_tampered'],
			['unsigned', 't_unsigned'],
			['wrong secret', 't_wrong_secret'],
			['another app', 't_another_app'],
			['other environment', 't_other_environment'],
		]);
		for (const { name, body } of bad) {
			expect([name, check(body).valid]).toEqual([name, false]);
		}
	});

	it("refuses the test chain with the default root (Apple's), with 401", () => {
		const body = notificationBody(chain, samples.oneTimeCharge);
		expect(appStore.verify(request(body, SANDBOX, ''))).toEqual({
			valid: false,
			reason: 'signedPayload: the x5c chain does not end at the trusted root',
		});
	});
});

/** A delivery of `rawBody` to a trigger for the samples' app, trusting the test root. */
const deliverToTrigger = async (
	rawBody: string,
	parameters: Record<string, string> = {},
	rootCa = chain.rootPem,
) => await deliverToAppStoreTrigger(rawBody, rootCa, parameters);

describe(scenario('paymentWebhook.appStore.trigger'), () => {
	const deliver = deliverToTrigger;

	it('turns a signed purchase and its prorated refund into items sharing the transaction ID', async () => {
		const signedDate = Date.parse('2026-11-20T08:00:00Z');
		const purchase = await deliver(notificationBody(chain, { ...samples.subscribed, signedDate }));
		const transaction = samples.subscribed.data.transactionInfo;
		expect(purchase.result).toMatchObject({
			workflowData: [
				[
					{
						json: {
							provider: 'appStore',
							eventType: 'SUBSCRIBED',
							eventId: samples.subscribed.notificationUUID,
							signedAt: '2026-11-20T08:00:00.000Z',
							kind: 'purchase',
							refundType: null,
							transactionId: transaction.transactionId,
							amount: '4.99',
							amountMinor: 499,
							currency: 'EUR',
							userId: transaction.appAccountToken,
							metadata: null,
							missing: ['metadata'],
							event: { data: { transactionInfo: { ...transaction, signedDate } } },
						},
					},
				],
			],
		});
		const refund = await deliver(notificationBody(chain, samples.refundProrated));
		expect(refund.result).toMatchObject({
			workflowData: [
				[
					{
						json: {
							kind: 'refund',
							refundType: 'partial',
							transactionId: transaction.transactionId,
							amount: '1.25',
						},
					},
				],
			],
		});
	});

	it('a free trial and a family member’s shared access start the workflow as other', async () => {
		for (const change of [
			{ offerDiscountType: 'FREE_TRIAL', price: 0 },
			{ inAppOwnershipType: 'FAMILY_SHARED' },
		]) {
			const transactionInfo = { ...samples.subscribed.data.transactionInfo, ...change };
			const { result } = await deliver(
				notificationBody(chain, {
					...samples.subscribed,
					data: { ...samples.subscribed.data, transactionInfo },
				}),
			);
			expect(result).toMatchObject({ workflowData: [[{ json: { kind: 'other' } }]] });
		}
	});

	it('answers 400 for a body that is no notification and 401 for another app, starting nothing', async () => {
		const notJson = await deliver('{"notificationType":"REFUND"}');
		expect(notJson.result).toEqual({ noWebhookResponse: true });
		expect(notJson.fake.sent).toEqual([{ status: 400, body: { error: 'Invalid webhook body' } }]);
		const otherApp = await deliver(notificationBody(chain, samples.refund), {
			bundleId: 'com.example.other',
		});
		expect(otherApp.result).toEqual({ noWebhookResponse: true });
		expect(otherApp.fake.sent).toEqual([
			{ status: 401, body: { error: 'Invalid webhook signature' } },
		]);
		expect(otherApp.fake.logged[0].message).toContain(
			'the notification is for another app than bundle ID com.example.other',
		);
	});

	it('says "an Apple App Store delivery" in the refusal line', async () => {
		const { fake } = await deliver(notificationBody(chain, samples.refund), {
			bundleId: 'com.example.other',
		});
		expect(fake.logged[0].message).toMatch(
			/^Payment Webhook Trigger "Payment Webhook Trigger" refused an Apple App Store delivery \(401\)/,
		);
	});

	it('an empty Bundle ID is a set-up error naming it, not an answer', async () => {
		const { result, fake } = await deliver(notificationBody(chain, samples.refund), {
			bundleId: '',
		});
		expect(result).toBeInstanceOf(NodeOperationError);
		expect((result as Error).message).toBe('The Bundle ID parameter is empty');
		expect(fake.sent).toEqual([]);
	});
});
