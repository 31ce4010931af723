/**
 * Webhook signature checks of the payment providers, over the raw body bytes exactly as received.
 * Pure functions (node:crypto only): the node hands them the bytes, the headers, the endpoint's
 * signing secret, the tolerance and the time; they answer with the verdict and, on a refusal, a
 * short reason that holds neither the secret, the body nor any header value.
 *
 * - Stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, HMAC-SHA256 of `<t>.<body>` keyed
 *   with the whole `whsec_…` secret; any `v1` may match (a secret roll sends two), `v0` is ignored.
 * - Paddle Billing: `Paddle-Signature: ts=<unix>;h1=<hex>[;h1=<hex>…]`, HMAC-SHA256 of
 *   `<ts>:<body>` keyed with the endpoint's secret key.
 * - Lemon Squeezy: `X-Signature: <hex>`, HMAC-SHA256 of the body; no timestamp is signed.
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>[ …]`,
 *   HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the bytes base64-encoded after `whsec_`;
 *   `v1a` (ed25519) and other versions are ignored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const PROVIDERS = ['stripe', 'paddle', 'lemonSqueezy', 'standardWebhooks'] as const;

export type Provider = (typeof PROVIDERS)[number];

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The header each provider signs with (lower case, as Node hands them over). */
export const SIGNATURE_HEADERS: Readonly<Record<Provider, string>> = {
	stripe: 'stripe-signature',
	paddle: 'paddle-signature',
	lemonSqueezy: 'x-signature',
	standardWebhooks: 'webhook-signature',
};

/** Request headers as Node's IncomingMessage gives them. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface VerificationInput {
	provider: Provider;
	/** The body bytes exactly as received. */
	rawBody: Uint8Array;
	headers: RequestHeaders;
	/** The endpoint's signing secret as the provider shows it. */
	secret: string;
	toleranceSeconds: number;
	/** Now, in Unix seconds. */
	nowSeconds: number;
}

export type Verification =
	| {
			valid: true;
			/** The signed timestamp (Unix seconds), null when the scheme signs none (Lemon Squeezy). */
			signedAt: number | null;
			/** Standard Webhooks' signed message ID (`webhook-id`), null for the others. */
			messageId: string | null;
	  }
	| {
			valid: false;
			reason: string;
			/** The secret itself is unusable (empty, badly formed): a setup error, not a bad delivery. */
			unusableSecret?: true;
	  };

const refuse = (reason: string): Verification => ({ valid: false, reason });

const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,12}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The one value of a header; a header sent twice (an array) counts as malformed. */
function headerValue(headers: RequestHeaders, name: string): string | undefined | null {
	const value = headers[name];
	if (value === undefined) return undefined;
	if (Array.isArray(value)) return null;
	return value;
}

/** Constant-time equality of two strings (false at once when their lengths differ). */
export function safeEqual(expected: string, received: string): boolean {
	const a = Buffer.from(expected, 'utf8');
	const b = Buffer.from(received, 'utf8');
	return a.length === b.length && timingSafeEqual(a, b);
}

/** True when any candidate equals the expected signature; every candidate is compared. */
function anyMatches(expected: string, candidates: readonly string[]): boolean {
	let matched = false;
	for (const candidate of candidates) {
		if (safeEqual(expected, candidate)) matched = true;
	}
	return matched;
}

function hmac(key: string | Buffer, parts: ReadonlyArray<string | Uint8Array>) {
	const mac = createHmac('sha256', key);
	for (const part of parts) mac.update(part);
	return mac;
}

/** `key=value` pairs split by `separator`, in order (a key may repeat). */
function pairs(header: string, separator: string): Array<[string, string]> {
	return header.split(separator).map((part) => {
		const at = part.indexOf('=');
		return at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
	});
}

/** The Standard Webhooks key: the base64 after `whsec_` (or the whole secret), decoded; null if none. */
export function standardWebhooksKey(secret: string): Buffer | null {
	const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
	if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return null;
	return Buffer.from(encoded, 'base64');
}

/**
 * Why a provider cannot sign with `secret` (empty, white space around it, not a Standard Webhooks
 * secret), or null when it can. The answer never quotes the secret.
 */
export function secretProblem(provider: Provider, secret: string): string | null {
	if (secret === '') return 'The Signing Secret is empty';
	if (secret !== secret.trim()) return 'The Signing Secret starts or ends with white space';
	if (provider === 'standardWebhooks' && standardWebhooksKey(secret) === null) {
		return 'The Signing Secret is not a Standard Webhooks secret: it must be "whsec_" followed by base64';
	}
	return null;
}

function checkAge(
	signedAt: number,
	nowSeconds: number,
	toleranceSeconds: number,
	messageId: string | null,
): Verification {
	const age = nowSeconds - signedAt;
	if (age > toleranceSeconds) {
		return refuse(`signed ${age} s ago, more than the tolerance of ${toleranceSeconds} s`);
	}
	if (-age > toleranceSeconds) {
		return refuse(
			`signed ${-age} s in the future, more than the tolerance of ${toleranceSeconds} s`,
		);
	}
	return { valid: true, signedAt, messageId };
}

/** A scheme that signs `<timestamp><joiner><body>` as hex, in `key=value` pairs of one header. */
interface TimestampedHexScheme {
	header: string;
	separator: string;
	timestampKey: string;
	signatureKey: string;
	joiner: string;
}

const STRIPE_SCHEME: TimestampedHexScheme = {
	header: 'Stripe-Signature',
	separator: ',',
	timestampKey: 't',
	signatureKey: 'v1',
	joiner: '.',
};

const PADDLE_SCHEME: TimestampedHexScheme = {
	header: 'Paddle-Signature',
	separator: ';',
	timestampKey: 'ts',
	signatureKey: 'h1',
	joiner: ':',
};

/** Stripe's and Paddle's check: any signature of the scheme's key may match (a secret roll sends two). */
function verifyTimestampedHex(
	input: VerificationInput,
	header: string,
	scheme: TimestampedHexScheme,
): Verification {
	let timestamp: string | undefined;
	const signatures: string[] = [];
	for (const [key, value] of pairs(header, scheme.separator)) {
		if (key === scheme.timestampKey) timestamp = value;
		else if (key === scheme.signatureKey) signatures.push(value.toLowerCase());
	}
	if (timestamp === undefined || !UNIX_SECONDS.test(timestamp)) {
		return refuse(`malformed ${scheme.header} header: no timestamp (${scheme.timestampKey}=)`);
	}
	if (signatures.length === 0) {
		return refuse(`malformed ${scheme.header} header: no ${scheme.signatureKey} signature`);
	}
	const expected = hmac(input.secret, [`${timestamp}${scheme.joiner}`, input.rawBody]).digest(
		'hex',
	);
	if (!anyMatches(expected, signatures)) {
		return refuse(`no ${scheme.signatureKey} signature matches the body and the signing secret`);
	}
	return checkAge(Number(timestamp), input.nowSeconds, input.toleranceSeconds, null);
}

function verifyLemonSqueezy(input: VerificationInput, header: string): Verification {
	const signature = header.trim();
	if (!HEX_SHA256.test(signature)) {
		return refuse('malformed X-Signature header: not a hex SHA-256 HMAC');
	}
	const expected = hmac(input.secret, [input.rawBody]).digest('hex');
	if (!safeEqual(expected, signature.toLowerCase())) {
		return refuse('the signature does not match the body and the signing secret');
	}
	return { valid: true, signedAt: null, messageId: null };
}

function verifyStandardWebhooks(input: VerificationInput, header: string): Verification {
	const messageId = headerValue(input.headers, 'webhook-id');
	const timestamp = headerValue(input.headers, 'webhook-timestamp');
	if (messageId === undefined || messageId === null || messageId === '') {
		return refuse('missing webhook-id header');
	}
	if (timestamp === undefined || timestamp === null || !UNIX_SECONDS.test(timestamp)) {
		return refuse('missing or malformed webhook-timestamp header');
	}
	const signatures = header
		.split(' ')
		.filter((entry) => entry !== '')
		.map((entry) => {
			const at = entry.indexOf(',');
			return at < 0 ? ['', entry] : [entry.slice(0, at), entry.slice(at + 1)];
		})
		.filter(([version]) => version === 'v1')
		.map(([, signature]) => signature);
	if (signatures.length === 0) {
		return refuse('malformed webhook-signature header: no v1 signature');
	}
	const key = standardWebhooksKey(input.secret) ?? Buffer.alloc(0);
	const expected = hmac(key, [`${messageId}.${timestamp}.`, input.rawBody]).digest('base64');
	if (!anyMatches(expected, signatures)) {
		return refuse('no v1 signature matches the body and the signing secret');
	}
	return checkAge(Number(timestamp), input.nowSeconds, input.toleranceSeconds, messageId);
}

/**
 * Checks one delivery; never throws. A secret the provider cannot sign with is refused with
 * `unusableSecret` (the node reports a setup error); every fault of the delivery is a refusal.
 */
export function verifyDelivery(input: VerificationInput): Verification {
	const problem = secretProblem(input.provider, input.secret);
	if (problem !== null) return { valid: false, reason: problem, unusableSecret: true };
	const name = SIGNATURE_HEADERS[input.provider];
	const header = headerValue(input.headers, name);
	if (header === null) return refuse(`${name} header sent more than once`);
	if (header === undefined || header.trim() === '') return refuse(`missing ${name} header`);
	switch (input.provider) {
		case 'stripe':
			return verifyTimestampedHex(input, header, STRIPE_SCHEME);
		case 'paddle':
			return verifyTimestampedHex(input, header, PADDLE_SCHEME);
		case 'lemonSqueezy':
			return verifyLemonSqueezy(input, header);
		case 'standardWebhooks':
			return verifyStandardWebhooks(input, header);
	}
}
