/**
 * Airwallex (nodes/PaymentWebhookTrigger/providers/airwallex): the test signer against Airwallex's
 * documented construction, and the module's check of `x-signature` over `x-timestamp` and the
 * raw body, with the timestamp tolerance.
 */
import { withSigningSecret } from '../../support/payment/paymentSignatures';
import { signAtMilliseconds } from '../../support/payment/signers/airwallex';
import { scenario } from '../../support/scenarios';
import { minorFromMajor } from '../../nodes/PaymentWebhookTrigger/money';
import { verifyAirwallex } from '../../nodes/PaymentWebhookTrigger/providers/airwallex/airwallex';

const SECRET = 'airwallex-documented-example-secret';
/** The `x-timestamp` example of Airwallex's "Delivery headers" table (Unix milliseconds). */
const DOCUMENTED_TIMESTAMP_MS = 1357872222592;
/** The envelope of Airwallex's payload example, its object cut to four fields. */
const DOCUMENTED_BODY =
	'{"id":"evt_100_2019102201549020043_8321220011893766","name":"payment_intent.created","accountId":"78814faa-1b30-4598-a9c8-f0583db8d09d","data":{"object":{"id":"int_aaaat9w2hgh8mzi1111","amount":16.66,"currency":"USD","status":"REQUIRES_PAYMENT_METHOD"}}}';
/**
 * Made apart from this code, with OpenSSL's command line, as Airwallex's Java example digests:
 * `printf '%s' "1357872222592$BODY" | openssl dgst -sha256 -hmac "$SECRET"`.
 */
const DOCUMENTED_SIGNATURE = '6fc6c40403fedff5f710d54be59ebbe2c2907c85e541a990565cd7ad9110c161';

const NOW_MS = 1_764_000_000_123;
const NOW = Math.floor(NOW_MS / 1000);

function verify(
	rawBody: string,
	headers: Record<string, string>,
	{ secret = SECRET, toleranceSeconds = 300, nowSeconds = NOW } = {},
) {
	return verifyAirwallex({
		rawBody: Buffer.from(rawBody),
		headers,
		secrets: withSigningSecret(secret),
		settings: {},
		toleranceSeconds,
		nowSeconds,
	});
}

describe(scenario('paymentWebhook.airwallexSigner'), () => {
	it("signs the documented example as OpenSSL digests Airwallex's construction", () => {
		expect(signAtMilliseconds(DOCUMENTED_BODY, SECRET, DOCUMENTED_TIMESTAMP_MS)).toEqual({
			'x-timestamp': String(DOCUMENTED_TIMESTAMP_MS),
			'x-signature': DOCUMENTED_SIGNATURE,
		});
	});

	it('the module accepts the documented example at its own time, signed then', () => {
		const headers = {
			'x-timestamp': String(DOCUMENTED_TIMESTAMP_MS),
			'x-signature': DOCUMENTED_SIGNATURE,
		};
		expect(
			verify(DOCUMENTED_BODY, headers, { nowSeconds: Math.floor(DOCUMENTED_TIMESTAMP_MS / 1000) }),
		).toEqual({ valid: true, signedAt: 1357872222, messageId: null });
	});
});

describe(scenario('paymentWebhook.airwallex'), () => {
	const body = DOCUMENTED_BODY;
	const signed = (options: { timestampMs?: number; secret?: string } = {}) =>
		signAtMilliseconds(body, options.secret ?? SECRET, options.timestampMs ?? NOW_MS);

	it('accepts a delivery signed now, in either hex case, with its signed time in seconds', () => {
		expect(verify(body, signed())).toEqual({ valid: true, signedAt: NOW, messageId: null });
		const upper = { ...signed(), 'x-signature': signed()['x-signature'].toUpperCase() };
		expect(verify(body, upper).valid).toBe(true);
	});

	it('refuses another secret, a body changed by one byte, and another timestamp', () => {
		expect(verify(body, signed({ secret: `${SECRET}x` }))).toMatchObject({ valid: false });
		expect(verify(body.replace('16.66', '16.67'), signed())).toMatchObject({ valid: false });
		const moved = { ...signed(), 'x-timestamp': String(NOW_MS + 1) };
		expect(verify(body, moved)).toMatchObject({
			valid: false,
			reason: 'the signature does not match the timestamp, the body and the signing secret',
		});
	});

	it('refuses a delivery older or newer than the tolerance, and takes another tolerance', () => {
		const old = signed({ timestampMs: NOW_MS - 301_000 });
		expect(verify(body, old)).toEqual({
			valid: false,
			reason: 'signed 301 s ago, more than the tolerance of 300 s',
		});
		expect(verify(body, old, { toleranceSeconds: 600 }).valid).toBe(true);
		expect(verify(body, signed({ timestampMs: NOW_MS + 301_000 }))).toMatchObject({
			valid: false,
			reason: 'signed 301 s in the future, more than the tolerance of 300 s',
		});
	});

	it('refuses a missing or malformed x-timestamp, and an x-signature that is no hex SHA-256', () => {
		const { 'x-signature': signature } = signed();
		expect(verify(body, { 'x-signature': signature })).toMatchObject({
			valid: false,
			reason: 'malformed x-timestamp header: no Unix time in milliseconds',
		});
		for (const timestamp of ['', 'now', '1764000000.5', '-1764000000000']) {
			expect(verify(body, { 'x-signature': signature, 'x-timestamp': timestamp }).valid).toBe(
				false,
			);
		}
		for (const bad of [signature.slice(1), `${signature}00`, `sha256=${signature}`]) {
			expect(verify(body, { ...signed(), 'x-signature': bad })).toMatchObject({
				valid: false,
				reason: 'malformed x-signature header: not a hex SHA-256 HMAC',
			});
		}
	});

	it('never quotes the secret, the body or a header in a reason', () => {
		const headers = signed({ secret: 'another-secret' });
		const verdict = verify(body, headers);
		if (verdict.valid) throw new Error('a wrong secret was accepted');
		for (const text of [
			SECRET,
			'another-secret',
			body,
			headers['x-signature'],
			headers['x-timestamp'],
		])
			expect(verdict.reason).not.toContain(text);
	});
});

describe(scenario('paymentWebhook.majorUnitsIn'), () => {
	it('reads amounts in major units from their decimal text, not by multiplying floats', () => {
		expect(minorFromMajor(16.66, 'USD')).toBe(1666);
		expect(minorFromMajor(1.1, 'USD')).toBe(110);
		expect(minorFromMajor(100, 'USD')).toBe(10000);
		expect(minorFromMajor('0.29', 'USD')).toBe(29);
		expect(minorFromMajor(62723, 'KRW')).toBe(62723);
		expect(minorFromMajor(1.234, 'KWD')).toBe(1234);
		expect(minorFromMajor(12.5, 'JPY')).toBeNull();
		expect(minorFromMajor(16.666, 'USD')).toBeNull();
		expect(minorFromMajor(1e21, 'USD')).toBeNull();
		expect(minorFromMajor(16.66, null)).toBeNull();
		expect(minorFromMajor('16,66', 'USD')).toBeNull();
	});
});
