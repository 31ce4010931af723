/**
 * Polar's two secret formats, held to Polar's own SDK (`@polar-sh/sdk` validateEvent): a delivery
 * the test signer makes with an older `polar_whs_…` secret or a `whsec_…` one verifies in the SDK
 * and in the Polar provider alike, and one the SDK refuses is refused. Also what the credential
 * test says of each format, and the user ID from the customer's `external_id`.
 */
import { createHmac } from 'node:crypto';

import { eventTypeOf, paymentEventItem } from '../../nodes/PaymentWebhookTrigger/events';
import {
	DEFAULT_TOLERANCE_SECONDS,
	secretProblem,
	verifyDelivery,
} from '../../nodes/PaymentWebhookTrigger/signatures';
import {
	OTHER_SIGNING_SECRETS,
	sampleEvent,
	signDelivery,
	TEST_SIGNING_SECRETS,
	withSigningSecret,
} from '../../support/payment/paymentSignatures';
import { polarWebhooks } from '../../support/payment/polarSdk';
import { testSigningSecret } from '../../support/fakes/fakeWebhookContext';
import { scenario } from '../../support/scenarios';

const LEGACY_SECRET = TEST_SIGNING_SECRETS.polar;
const STANDARD_SECRET = OTHER_SIGNING_SECRETS.polar;
const nowSeconds = () => Math.floor(Date.now() / 1000);

const body = JSON.stringify({
	...sampleEvent('polar', 'purchase', { transactionId: 'ord_polar_1' }),
	note: 'Zoë paid 10 € — ありがとう',
});

const ours = (rawBody: string, headers: Record<string, string>, secret: string) =>
	verifyDelivery({
		provider: 'polar',
		rawBody: Buffer.from(rawBody, 'utf8'),
		headers,
		secrets: withSigningSecret(secret),
		settings: {},
		toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
		nowSeconds: nowSeconds(),
	});

/** Polar's SDK's verdict: true when validateEvent returns the event, false when it refuses. */
async function sdkAccepts(rawBody: string, headers: Record<string, string>, secret: string) {
	try {
		const event = await polarWebhooks.validateEvent(rawBody, headers, secret);
		expect(event.type).toBe('order.paid');
		return true;
	} catch (error) {
		expect(error).toBeInstanceOf(polarWebhooks.PolarWebhookVerificationError);
		return false;
	}
}

/** Standard Webhooks' headers for `body`, the HMAC keyed with the secret's own UTF-8 bytes. */
function signedWithUtf8Key(id: string, secret: string): Record<string, string> {
	const timestamp = String(nowSeconds());
	const signature = createHmac('sha256', Buffer.from(secret, 'utf8'))
		.update(`${id}.${timestamp}.${body}`)
		.digest('base64');
	return {
		'webhook-id': id,
		'webhook-timestamp': timestamp,
		'webhook-signature': `v1,${signature}`,
	};
}

describe(scenario('paymentWebhook.polar'), () => {
	it.each([
		['polar_whs_… (before 2026-09-08)', LEGACY_SECRET],
		['whsec_ and base64', STANDARD_SECRET],
	])('a %s secret: the SDK and the provider accept the same delivery', async (_format, secret) => {
		expect(secretProblem('polar', withSigningSecret(secret))).toBeNull();
		const headers = signDelivery('polar', body, secret, { timestamp: nowSeconds() });
		await expect(sdkAccepts(body, headers, secret)).resolves.toBe(true);
		expect(ours(body, headers, secret)).toMatchObject({
			valid: true,
			messageId: headers['webhook-id'],
		});
	});

	it('the older secret keys with its own UTF-8 bytes, not as Standard Webhooks decodes it', async () => {
		const headers = signedWithUtf8Key('msg_polar_utf8', LEGACY_SECRET);
		await expect(sdkAccepts(body, headers, LEGACY_SECRET)).resolves.toBe(true);
		expect(ours(body, headers, LEGACY_SECRET).valid).toBe(true);
		// The Standard Webhooks provider cannot use such a secret: a setup error, as before.
		expect(secretProblem('standardWebhooks', withSigningSecret(LEGACY_SECRET))).toMatch(
			/not a Standard Webhooks secret/,
		);
	});

	it('a whsec_ secret also verifies under its UTF-8 bytes, as the SDK has it', async () => {
		const headers = signedWithUtf8Key('msg_polar_whsec_utf8', STANDARD_SECRET);
		await expect(sdkAccepts(body, headers, STANDARD_SECRET)).resolves.toBe(true);
		expect(ours(body, headers, STANDARD_SECRET).valid).toBe(true);
	});

	it.each([
		['the other format’s secret', LEGACY_SECRET, STANDARD_SECRET, body],
		['another polar_whs_ secret', LEGACY_SECRET, `${LEGACY_SECRET}_other`, body],
		['a tampered body', LEGACY_SECRET, LEGACY_SECRET, body.replace('ord_polar_1', 'ord_polar_2')],
	])('refused by both: %s', async (_case, signedWith, checkedWith, sentBody) => {
		const headers = signDelivery('polar', body, signedWith, { timestamp: nowSeconds() });
		await expect(sdkAccepts(sentBody, headers, checkedWith)).resolves.toBe(false);
		expect(ours(sentBody, headers, checkedWith)).toEqual({
			valid: false,
			reason: 'no v1 signature matches the body and the signing secret',
		});
	});

	it.each([
		['polar_whs_', 'not a Polar secret'],
		['whsec_not base64!', 'not a Polar secret'],
		['sk_live_polar', 'not a Polar secret'],
		['', 'The Signing Secret is empty'],
	])('refuses the secret %j as unusable for Polar', (secret, problem) => {
		expect(secretProblem('polar', withSigningSecret(secret))).toContain(problem);
	});

	it.each([LEGACY_SECRET, STANDARD_SECRET])(
		'the credential test accepts %s for Polar',
		async (signingSecret) => {
			const result = await testSigningSecret(signingSecret);
			expect(result.status).toBe('OK');
			expect(result.message).toMatch(/well formed for .*\bPolar\b/);
			expect(result.message).not.toContain(signingSecret);
		},
	);

	it("the user ID is the customer's external_id before the metadata's", () => {
		const event = sampleEvent('polar', 'refund', { transactionId: 'ord_polar_1' });
		const data = event.data as Record<string, unknown>;
		const refund = {
			...event,
			data: { ...data, customer: { id: 'cus_1', external_id: 'user_server_set' } },
		};
		const eventType = eventTypeOf('polar', refund);
		expect(eventType).toBe('order.refunded');
		const facts = { signedAt: null, messageId: 'msg_1', userIdMetadataKey: 'user_id' };
		expect(paymentEventItem('polar', eventType!, refund, facts)).toMatchObject({
			kind: 'refund',
			transactionId: 'ord_polar_1',
			userId: 'user_server_set',
		});
		const withoutCustomer = { ...event, data: { ...data, customer: null } };
		expect(paymentEventItem('polar', 'order.refunded', withoutCustomer, facts).userId).toBe(
			'user_1001',
		);
	});
});
