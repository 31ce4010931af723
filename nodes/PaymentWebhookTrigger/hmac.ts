/**
 * What the providers' signature checks share (node:crypto only): HMAC-SHA256 over the raw body
 * bytes, constant-time comparison, the timestamp tolerance, and the schemes more than one
 * provider uses. A refusal's reason holds neither the secret, the body nor any header value.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

import type { DeliveryRequest, RequestHeaders, Verification } from './provider';

export const refuse = (reason: string): Verification => ({ valid: false, reason });

/** A signature header that is there, once and not blank; else the refusal that names it. */
export function signatureHeader(
	request: DeliveryRequest,
	name: string,
): { header: string } | { refusal: Verification } {
	const header = headerValue(request.headers, name);
	if (header === undefined || header.trim() === '')
		return { refusal: refuse(`missing ${name} header`) };
	return { header };
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;
export const UNIX_SECONDS = /^\d{1,12}$/;

/**
 * The value of a header. Node's HTTP parser joins a header sent twice into one string, its values
 * separated by ", " (only set-cookie comes as an array); the schemes parse that string as it is.
 */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
	const value = headers[name];
	return typeof value === 'string' ? value : undefined;
}

/** Constant-time equality of two strings (false at once when their lengths differ). */
export function safeEqual(expected: string, received: string): boolean {
	const a = Buffer.from(expected, 'utf8');
	const b = Buffer.from(received, 'utf8');
	return a.length === b.length && timingSafeEqual(a, b);
}

/** True when any candidate equals the expected signature; every candidate is compared. */
export function anyMatches(expected: string, candidates: readonly string[]): boolean {
	let matched = false;
	for (const candidate of candidates) {
		if (safeEqual(expected, candidate)) matched = true;
	}
	return matched;
}

export function hmac(key: string | Buffer, parts: ReadonlyArray<string | Uint8Array>) {
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

/** Accepted when `signedAt` is within the tolerance of now, in the past or the future. */
export function checkAge(
	signedAt: number,
	request: DeliveryRequest,
	messageId: string | null,
): Verification {
	const { nowSeconds, toleranceSeconds } = request;
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
export interface TimestampedHexScheme {
	/** As the provider's documentation spells it; requests hold it in lower case. */
	header: string;
	separator: string;
	timestampKey: string;
	signatureKey: string;
	joiner: string;
}

/** Stripe's and Paddle's check: any signature of the scheme's key may match (a secret roll sends two). */
export function verifyTimestampedHex(
	request: DeliveryRequest,
	scheme: TimestampedHexScheme,
): Verification {
	const found = signatureHeader(request, scheme.header.toLowerCase());
	if ('refusal' in found) return found.refusal;
	const { header } = found;
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
	const expected = hmac(request.secrets.signingSecret, [
		`${timestamp}${scheme.joiner}`,
		request.rawBody,
	]).digest('hex');
	if (!anyMatches(expected, signatures)) {
		return refuse(`no ${scheme.signatureKey} signature matches the body and the signing secret`);
	}
	return checkAge(Number(timestamp), request, null);
}

/**
 * Lemon Squeezy's and Creem's check: the header is the hex HMAC-SHA256 of the body alone, keyed
 * with the secret as shown. No timestamp is signed, so nothing can be called stale.
 */
export function verifyBodyHex(request: DeliveryRequest, headerName: string): Verification {
	const found = signatureHeader(request, headerName.toLowerCase());
	if ('refusal' in found) return found.refusal;
	const signature = found.header.trim();
	if (!HEX_SHA256.test(signature)) {
		return refuse(`malformed ${headerName} header: not a hex SHA-256 HMAC`);
	}
	const expected = hmac(request.secrets.signingSecret, [request.rawBody]).digest('hex');
	if (!safeEqual(expected, signature.toLowerCase())) {
		return refuse('the signature does not match the body and the signing secret');
	}
	return { valid: true, signedAt: null, messageId: null };
}

/**
 * The Standard Webhooks check: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>
 * [ …]`, HMAC-SHA256 of `<id>.<timestamp>.<body>`; any `v1` signature may match under any of
 * `keys` (`v1a` and other versions are ignored). The signed `webhook-id` names the delivery.
 */
export function verifyStandardWebhooks(
	request: DeliveryRequest,
	keys: readonly Buffer[],
): Verification {
	const found = signatureHeader(request, 'webhook-signature');
	if ('refusal' in found) return found.refusal;
	const messageId = headerValue(request.headers, 'webhook-id');
	const timestamp = headerValue(request.headers, 'webhook-timestamp');
	if (messageId === undefined || messageId === '') {
		return refuse('missing webhook-id header');
	}
	if (timestamp === undefined || !UNIX_SECONDS.test(timestamp)) {
		return refuse('missing or malformed webhook-timestamp header');
	}
	const signatures = found.header
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
	let matched = false;
	for (const key of keys) {
		const expected = hmac(key, [`${messageId}.${timestamp}.`, request.rawBody]).digest('base64');
		if (anyMatches(expected, signatures)) matched = true;
	}
	if (!matched) return refuse('no v1 signature matches the body and the signing secret');
	return checkAge(Number(timestamp), request, messageId);
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The key bytes of a Standard Webhooks secret: the base64 after `whsec_` (or the whole secret). */
export function standardWebhooksKey(secret: string): Buffer | null {
	const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
	if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return null;
	return Buffer.from(encoded, 'base64');
}
