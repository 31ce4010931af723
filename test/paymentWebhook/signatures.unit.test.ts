/**
 * The Payment Webhook Trigger's signature checks (nodes/PaymentWebhookTrigger/signatures.ts) on
 * deliveries signed by the test signers (support/payment/paymentSignatures.js), checked against
 * the providers' own libraries where npm has one: good, forged, tampered and stale deliveries.
 */
import { Paddle } from '@paddle/paddle-node-sdk';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';

import { hmacHex } from '../../support/payment/signer';
import {
	PLAIN_JSON_PROVIDERS,
	nodeParametersOf,
	OTHER_SIGNING_SECRETS as OTHER_SECRETS,
	testSecretsOf,
	PROVIDERS,
	SAMPLES,
	sampleEvent,
	SIGNATURE_HEADERS,
	SIGNERS,
	signDelivery,
	SIGNS_NO_TIMESTAMP,
	TEST_SIGNING_SECRETS,
	withSigningSecret,
} from '../../support/payment/paymentSignatures';
import {
	DEFAULT_TOLERANCE_SECONDS,
	safeEqual,
	secretProblem,
	verifyDelivery,
	type RequestHeaders,
	type Verification,
} from '../../nodes/PaymentWebhookTrigger/signatures';
import type { Provider } from '../../nodes/PaymentWebhookTrigger/providers';
import { scenario } from '../../support/scenarios';

const NOW = 1_764_000_000;
const stripeWebhooks = new Stripe('sk_test_signing_only').webhooks;

/** A purchase body as the provider sends it, with non-ASCII text so that bytes matter. */
function bodyOf(provider: Provider): string {
	const event = sampleEvent(provider, 'purchase', { transactionId: 'txn_sig_1' });
	return JSON.stringify({ ...event, note: 'Zoë paid 10 € — ありがとう' });
}

function verify(
	provider: Provider,
	rawBody: string | Buffer,
	headers: RequestHeaders,
	options: { secret?: string; toleranceSeconds?: number; nowSeconds?: number } = {},
): Verification {
	return verifyDelivery({
		provider,
		rawBody: Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8'),
		headers,
		secrets: {
			...testSecretsOf(provider),
			signingSecret: options.secret ?? TEST_SIGNING_SECRETS[provider],
		},
		settings: nodeParametersOf(provider),
		toleranceSeconds: options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
		nowSeconds: options.nowSeconds ?? NOW,
	});
}

const signed = (provider: Provider, rawBody: string, timestamp = NOW, secret?: string) =>
	signDelivery(provider, rawBody, secret ?? TEST_SIGNING_SECRETS[provider], { timestamp });

const refusal = (reason: string | RegExp) => ({
	valid: false,
	reason: typeof reason === 'string' ? reason : expect.stringMatching(reason),
});

/** A header signed with both secrets of a secret roll: it verifies under either secret. */
function expectValidUnderBothSecrets(provider: Provider, rawBody: string, headers: RequestHeaders) {
	expect(verify(provider, rawBody, headers).valid).toBe(true);
	expect(verify(provider, rawBody, headers, { secret: OTHER_SECRETS[provider] }).valid).toBe(true);
}

describe(scenario('paymentWebhook.signatures'), () => {
	describe.each(PLAIN_JSON_PROVIDERS)('%s', (provider) => {
		const rawBody = bodyOf(provider);
		const timed = !SIGNS_NO_TIMESTAMP.includes(provider);
		const name = SIGNATURE_HEADERS[provider];
		// The body's headers signed with the test secret, and with another secret.
		const valid = signed(provider, rawBody);
		const forged = signed(provider, rawBody, NOW, OTHER_SECRETS[provider]);

		it("accepts a delivery signed by the provider's scheme, with its signed time", () => {
			expect(verify(provider, rawBody, valid)).toEqual({
				valid: true,
				signedAt: timed ? NOW : null,
				messageId:
					SAMPLES[provider].eventIdFrom === 'message' ? expect.stringMatching(/^msg_/) : null,
			});
		});

		it('refuses another secret', () => {
			expect(verify(provider, rawBody, forged)).toEqual(refusal(/does not match|matches the body/));
		});

		it('refuses a body changed by one byte, or the same JSON serialized again (the bytes are signed)', () => {
			const tampered = Buffer.from(rawBody, 'utf8');
			tampered[tampered.length - 3] ^= 1;
			expect(verify(provider, tampered, valid).valid).toBe(false);
			expect(verify(provider, rawBody.replace('txn_sig_1', 'txn_sig_2'), valid).valid).toBe(false);
			const parsed: unknown = JSON.parse(rawBody);
			for (const again of [JSON.stringify(parsed, null, 2), JSON.stringify(parsed, null, '\t')]) {
				expect(JSON.parse(again)).toEqual(parsed);
				expect(verify(provider, again, valid).valid).toBe(false);
			}
			const pretty = JSON.stringify(parsed, null, 2);
			const prettySigned = signed(provider, pretty);
			expect(verify(provider, pretty, prettySigned).valid).toBe(true);
			expect(verify(provider, JSON.stringify(parsed), prettySigned).valid).toBe(false);
		});

		it('refuses a delivery without the signature header, or with a blank or malformed one', () => {
			const headers = { ...valid };
			delete headers[name];
			expect(verify(provider, rawBody, headers)).toEqual(refusal(`missing ${name} header`));
			expect(verify(provider, rawBody, { [name]: '  ' }).valid).toBe(false);
			for (const malformed of ['garbage', 'v1=', 't=,v1=', 'ts=;h1=', 'v1,', '=,;']) {
				const result = verify(provider, rawBody, { ...valid, [name]: malformed });
				expect(result).toEqual(refusal(/malformed|does not match|matches the body/));
			}
		});

		// Node's HTTP parser joins a header sent twice into one string, its values split by ", ".
		it('a signature header sent twice, as Node joins it: forged values never pass', () => {
			const joined = (a: string, b: string) => ({ ...valid, [name]: `${a}, ${b}` });
			expect(verify(provider, rawBody, joined(forged[name], forged[name])).valid).toBe(false);
			// A forged value and the genuine one: a scheme of several signatures finds the genuine
			// one among them; a scheme of one bare hex HMAC (Lemon Squeezy, Creem, Airwallex) calls
			// the joined value malformed.
			expect(verify(provider, rawBody, joined(forged[name], valid[name]))).toEqual(
				SIGNERS[provider].oneBareSignature
					? refusal(/^malformed .* header: not a hex SHA-256 HMAC$/)
					: expect.objectContaining({ valid: true }),
			);
		});

		it('never quotes the secret, the body or the header in a reason', () => {
			const secret = TEST_SIGNING_SECRETS[provider];
			const cases = [
				verify(provider, rawBody, forged),
				verify(provider, rawBody, {}),
				verify(provider, rawBody, { [name]: secret }),
				...(timed ? [verify(provider, rawBody, signed(provider, rawBody, NOW - 10_000))] : []),
			];
			for (const result of cases) {
				expect(result.valid).toBe(false);
				const reason = result.valid ? '' : result.reason;
				expect(reason).not.toContain(secret);
				expect(reason).not.toContain('txn_sig_1');
				for (const value of Object.values(forged)) expect(reason).not.toContain(value);
			}
		});

		if (timed) {
			it('refuses a timestamp older or newer than the tolerance, and takes another tolerance', () => {
				const at = (offset: number, toleranceSeconds?: number) =>
					verify(provider, rawBody, signed(provider, rawBody, NOW + offset), { toleranceSeconds });
				expect(at(-300).valid).toBe(true);
				expect(at(300).valid).toBe(true);
				expect(at(-301)).toEqual(refusal('signed 301 s ago, more than the tolerance of 300 s'));
				expect(at(301)).toEqual(
					refusal('signed 301 s in the future, more than the tolerance of 300 s'),
				);
				expect(at(-3600).valid).toBe(false);
				expect(at(-3600, 7200).valid).toBe(true);
				expect(at(-30, 10)).toEqual(refusal('signed 30 s ago, more than the tolerance of 10 s'));
				expect(at(30, 10).valid).toBe(false);
			});
		} else {
			it('signs no timestamp: an old delivery still verifies (Lemon Squeezy sends none)', () => {
				const dayLater = verify(provider, rawBody, valid, { nowSeconds: NOW + 86_400 });
				expect(dayLater).toMatchObject({ valid: true, signedAt: null });
			});
		}
	});

	describe('Stripe', () => {
		const rawBody = bodyOf('stripe');
		const secret = TEST_SIGNING_SECRETS.stripe;
		const header = (key: string, scheme?: string) =>
			stripeWebhooks.generateTestHeaderString({
				payload: rawBody,
				secret: key,
				timestamp: NOW,
				scheme,
			});
		const v1Of = (value: string) => value.split(',').find((part) => part.startsWith('v1='));
		const check = (signature: string, secretUsed?: string) =>
			verify('stripe', rawBody, { 'stripe-signature': signature }, { secret: secretUsed });

		it("agrees with Stripe's own verifier", () => {
			const signature = header(secret);
			expect(() =>
				stripeWebhooks.constructEvent(rawBody, signature, secret, 300, undefined, NOW),
			).not.toThrow();
			expect(check(signature).valid).toBe(true);
		});

		it('accepts any of several v1 signatures (a secret roll signs with both secrets)', () => {
			const both = `${header(OTHER_SECRETS.stripe)},${v1Of(header(secret))}`;
			expect(both.match(/v1=/g)).toHaveLength(2);
			expectValidUnderBothSecrets('stripe', rawBody, { 'stripe-signature': both });
			expect(check(both, 'whsec_a_third_secret').valid).toBe(false);
		});

		it('ignores v0 signatures, even a matching one, and refuses a header without t=', () => {
			const v0Only = header(secret, 'v0');
			expect(v0Only).toMatch(/^t=\d+,v0=[0-9a-f]{64}$/);
			expect(check(v0Only)).toEqual(refusal('malformed Stripe-Signature header: no v1 signature'));
			const withV0 = `${header(secret)},v0=${'0'.repeat(64)}`;
			expect(check(withV0).valid).toBe(true);
			expect(check(v1Of(header(secret)) ?? '')).toEqual(
				refusal('malformed Stripe-Signature header: no timestamp (t=)'),
			);
		});
	});

	describe('Paddle Billing', () => {
		const rawBody = bodyOf('paddle');
		const secret = TEST_SIGNING_SECRETS.paddle;
		const check = (signature: string) =>
			verify('paddle', rawBody, { 'paddle-signature': signature });

		it("signs as Paddle's SDK verifies (a signature made now)", async () => {
			const now = Math.floor(Date.now() / 1000);
			const headers = signDelivery('paddle', rawBody, secret, { timestamp: now });
			const paddle = new Paddle('x');
			await expect(
				paddle.webhooks.isSignatureValid(rawBody, secret, headers['paddle-signature']),
			).resolves.toBe(true);
			await expect(
				paddle.webhooks.isSignatureValid(`${rawBody} `, secret, headers['paddle-signature']),
			).resolves.toBe(false);
			expect(verify('paddle', rawBody, headers, { nowSeconds: now }).valid).toBe(true);
		});

		it('accepts any of several h1 signatures (a secret roll)', () => {
			const h1 = (key: string) =>
				signed('paddle', rawBody, NOW, key)['paddle-signature'].split(';')[1];
			const both = `ts=${NOW};${h1(OTHER_SECRETS.paddle)};${h1(secret)}`;
			expectValidUnderBothSecrets('paddle', rawBody, { 'paddle-signature': both });
			expect(check(`ts=${NOW};${h1('pdl_other')}`).valid).toBe(false);
		});

		it('refuses a header without ts= or without h1=', () => {
			const [, h1] = signed('paddle', rawBody)['paddle-signature'].split(';');
			expect(check(h1)).toEqual(refusal('malformed Paddle-Signature header: no timestamp (ts=)'));
			expect(check(`ts=${NOW}`)).toEqual(
				refusal('malformed Paddle-Signature header: no h1 signature'),
			);
		});
	});

	it('Lemon Squeezy: accepts the hex HMAC in either case, refuses what is no hex SHA-256', () => {
		const rawBody = bodyOf('lemonSqueezy');
		const check = (value: string) => verify('lemonSqueezy', rawBody, { 'x-signature': value });
		const { 'x-signature': signature } = signed('lemonSqueezy', rawBody);
		expect(signature).toMatch(/^[0-9a-f]{64}$/);
		expect(check(signature.toUpperCase()).valid).toBe(true);
		expect(check(signature.slice(1))).toEqual(
			refusal('malformed X-Signature header: not a hex SHA-256 HMAC'),
		);
	});

	it('Creem: the hex HMAC-SHA256 of the body keyed with the secret as shown, whsec_ included, in creem-signature only', () => {
		const rawBody = bodyOf('creem');
		const secret = TEST_SIGNING_SECRETS.creem;
		// What the signer sends: signed('creem', rawBody)['creem-signature'].
		const signature = hmacHex(secret, rawBody);
		const check = (value: string) => verify('creem', rawBody, { 'creem-signature': value });
		expect(check(signature)).toEqual({ valid: true, signedAt: null, messageId: null });
		const keyedWithoutPrefix = hmacHex(secret.slice('whsec_'.length), rawBody);
		expect(check(keyedWithoutPrefix).valid).toBe(false);
		expect(check(`sha256=${signature}`)).toEqual(
			refusal('malformed creem-signature header: not a hex SHA-256 HMAC'),
		);
		expect(verify('creem', rawBody, { 'x-signature': signature })).toEqual(
			refusal('missing creem-signature header'),
		);
	});

	describe('Standard Webhooks', () => {
		const rawBody = bodyOf('standardWebhooks');
		const secret = TEST_SIGNING_SECRETS.standardWebhooks;
		const headers = signed('standardWebhooks', rawBody);
		const check = (changes: RequestHeaders) =>
			verify('standardWebhooks', rawBody, { ...headers, ...changes });

		it("agrees with the standardwebhooks library's verifier", () => {
			const now = Math.floor(Date.now() / 1000);
			const headers = signDelivery('standardWebhooks', rawBody, secret, { timestamp: now });
			expect(() => new Webhook(secret).verify(rawBody, headers)).not.toThrow();
			expect(verify('standardWebhooks', rawBody, headers, { nowSeconds: now }).valid).toBe(true);
		});

		it('accepts any v1 of a space-separated list (a secret roll), ignores v1a', () => {
			const old = new Webhook(OTHER_SECRETS.standardWebhooks).sign(
				headers['webhook-id'],
				new Date(NOW * 1000),
				rawBody,
			);
			const list = `v1a,${Buffer.alloc(64, 7).toString('base64')} ${old} ${headers['webhook-signature']}`;
			expectValidUnderBothSecrets('standardWebhooks', rawBody, {
				...headers,
				'webhook-signature': list,
			});
			const v1aOnly = `v1a,${headers['webhook-signature'].split(',')[1]}`;
			expect(check({ 'webhook-signature': v1aOnly })).toEqual(
				refusal('malformed webhook-signature header: no v1 signature'),
			);
		});

		it('signs the message ID and the timestamp: changing either, or leaving out webhook-id or a well-formed webhook-timestamp, fails', () => {
			expect(check({ 'webhook-id': 'msg_other' }).valid).toBe(false);
			expect(check({ 'webhook-timestamp': String(NOW + 1) }).valid).toBe(false);
			const withoutId = { ...headers };
			delete withoutId['webhook-id'];
			expect(verify('standardWebhooks', rawBody, withoutId)).toEqual(
				refusal('missing webhook-id header'),
			);
			expect(check({ 'webhook-timestamp': 'soon' })).toEqual(
				refusal('missing or malformed webhook-timestamp header'),
			);
		});
	});

	describe(scenario('paymentWebhook.unusableSecrets'), () => {
		it.each([
			['stripe', '', 'The Signing Secret is empty'],
			['paddle', ' pdl_ntfset_x', 'The Signing Secret starts or ends with white space'],
			['lemonSqueezy', 'secret\n', 'The Signing Secret starts or ends with white space'],
			[
				'standardWebhooks',
				'whsec_not base64!',
				'The Signing Secret is not a Standard Webhooks secret: it must be "whsec_" followed by base64',
			],
			[
				'creem',
				'creem_live_secret',
				'The Signing Secret is not a Creem secret: it starts with "whsec_"',
			],
		] as const)('%s: %j', (provider, secret, problem) => {
			expect(secretProblem(provider, withSigningSecret(secret))).toBe(problem);
			const rawBody = bodyOf(provider);
			expect(verify(provider, rawBody, signed(provider, rawBody), { secret })).toEqual({
				valid: false,
				reason: problem,
				unusableSecret: true,
			});
		});

		it("takes each test endpoint's credential as it is", () => {
			for (const provider of PROVIDERS) {
				expect(secretProblem(provider, testSecretsOf(provider))).toBeNull();
			}
		});
	});

	it('compares in constant time only strings of equal length', () => {
		expect(safeEqual('abc', 'abc')).toBe(true);
		expect(safeEqual('abc', 'abd')).toBe(false);
		expect(safeEqual('abc', 'abcd')).toBe(false);
		expect(safeEqual('', '')).toBe(true);
	});
});
