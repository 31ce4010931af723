import { createHash, createHmac } from 'node:crypto';

export type SignatureVersion = 'v1' | 'v2';

export const API_PREFIX = '/api/open/v1';

/** Lowercase hex SHA-256 of a string (as UTF-8) or of raw bytes. */
export function sha256Hex(data: string | Uint8Array): string {
	return createHash('sha256').update(data).digest('hex');
}

const CHAR_0 = 0x30;
const CHAR_9 = 0x39;

function isDigit(byte: number | undefined): boolean {
	return byte !== undefined && byte >= CHAR_0 && byte <= CHAR_9;
}

function isSpace(byte: number | undefined): boolean {
	// C isspace(): space, \t, \n, \v, \f, \r
	return byte === 0x20 || (byte !== undefined && byte >= 0x09 && byte <= 0x0d);
}

/**
 * PHP's strnatcmp() (the comparison behind SORT_NATURAL), ported byte for byte from
 * ext/standard/strnatcmp.c so that v1 signatures match the server's field order:
 * digit runs compare as numbers ("a2" < "a10"), runs starting with 0 compare left-aligned,
 * leading zeros of the whole string and whitespace are skipped.
 */
export function naturalCompare(left: string, right: string): number {
	const a = Buffer.from(left, 'utf8');
	const b = Buffer.from(right, 'utf8');
	if (a.length === 0 || b.length === 0) {
		return a.length === b.length ? 0 : a.length > b.length ? 1 : -1;
	}
	let ai = 0;
	let bi = 0;
	let leading = true;
	for (;;) {
		let ca = a[ai];
		let cb = b[bi];
		while (leading && ca === CHAR_0 && ai + 1 < a.length && isDigit(a[ai + 1])) ca = a[++ai];
		while (leading && cb === CHAR_0 && bi + 1 < b.length && isDigit(b[bi + 1])) cb = b[++bi];
		leading = false;
		while (isSpace(ca)) ca = a[++ai];
		while (isSpace(cb)) cb = b[++bi];

		if (isDigit(ca) && isDigit(cb)) {
			const run = ca === CHAR_0 || cb === CHAR_0 ? compareLeftAligned : compareRightAligned;
			const { result, aEnd, bEnd } = run(a, ai, b, bi);
			if (result !== 0) return result;
			ai = aEnd;
			bi = bEnd;
			if (ai === a.length && bi === b.length) return 0;
			if (ai === a.length) return -1;
			if (bi === b.length) return 1;
			ca = a[ai];
			cb = b[bi];
		}

		const byteA = ca ?? 0;
		const byteB = cb ?? 0;
		if (byteA !== byteB) return byteA < byteB ? -1 : 1;
		ai++;
		bi++;
		if (ai >= a.length && bi >= b.length) return 0;
		if (ai >= a.length) return -1;
		if (bi >= b.length) return 1;
	}
}

interface DigitRunComparison {
	result: number;
	aEnd: number;
	bEnd: number;
}

/** Integer runs: the longer run wins; at equal length the first differing digit decides. */
function compareRightAligned(a: Buffer, ai: number, b: Buffer, bi: number): DigitRunComparison {
	let bias = 0;
	for (; ; ai++, bi++) {
		const aDone = !isDigit(a[ai]);
		const bDone = !isDigit(b[bi]);
		if (aDone && bDone) return { result: bias, aEnd: ai, bEnd: bi };
		if (aDone) return { result: -1, aEnd: ai, bEnd: bi };
		if (bDone) return { result: 1, aEnd: ai, bEnd: bi };
		if (bias === 0 && a[ai] !== b[bi]) bias = a[ai] < b[bi] ? -1 : 1;
	}
}

/** Runs with a leading zero compare like fractions: the first differing digit decides. */
function compareLeftAligned(a: Buffer, ai: number, b: Buffer, bi: number): DigitRunComparison {
	for (; ; ai++, bi++) {
		const aDone = !isDigit(a[ai]);
		const bDone = !isDigit(b[bi]);
		if (aDone && bDone) return { result: 0, aEnd: ai, bEnd: bi };
		if (aDone) return { result: -1, aEnd: ai, bEnd: bi };
		if (bDone) return { result: 1, aEnd: ai, bEnd: bi };
		if (a[ai] !== b[bi]) return { result: a[ai] < b[bi] ? -1 : 1, aEnd: ai, bEnd: bi };
	}
}

/** ASCII-only lower-casing, as PHP 8's strtolower(). */
function asciiLowerCase(name: string): string {
	return name.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
}

/**
 * The v1 string to sign without its secret: the lower-cased top-level field names in
 * natural order joined by "&", then the timestamp. The secret is appended only inside
 * signV1 so that this string can be shown in diagnostics.
 */
export function v1StringToSign(fieldNames: Iterable<string>, timestamp: string): string {
	// A name in both query and body is one field (PHP merges them); case variants stay apart.
	const names = [...new Set(fieldNames)].map(asciiLowerCase);
	names.sort(naturalCompare);
	return names.join('&') + timestamp;
}

export function signV1(fieldNames: Iterable<string>, timestamp: string, secret: string): string {
	return sha256Hex(v1StringToSign(fieldNames, timestamp) + secret);
}

export interface V2SigningInput {
	method: string;
	/** The path exactly as sent, percent-encoded, without the query. */
	path: string;
	/** The raw query string exactly as sent, without "?"; empty when there is none. */
	query: string;
	timestamp: string;
	/** The raw body bytes exactly as sent; empty for GET. */
	body: string | Uint8Array;
}

export function v2StringToSign(input: V2SigningInput): string {
	return [
		'PS-HMAC-SHA256',
		input.method.toUpperCase(),
		input.path,
		input.query,
		input.timestamp,
		sha256Hex(input.body),
	].join('\n');
}

export function signV2(input: V2SigningInput, secret: string): string {
	return createHmac('sha256', secret).update(v2StringToSign(input)).digest('hex');
}

/**
 * Percent-encodes everything but RFC 3986 unreserved characters, so that the WHATWG URL
 * parser (used by every HTTP client on the way out) leaves the string byte-identical.
 */
export function encodeRfc3986(value: string): string {
	return encodeURIComponent(value).replace(
		/[!'()*]/g,
		(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

export type QueryValue = string | number | boolean;

/** Query fields by name, or as name/value pairs in which a name may repeat (a=1&a=2). */
export type QueryFields =
	| Record<string, QueryValue | undefined>
	| ReadonlyArray<readonly [string, QueryValue | undefined]>;

/** Builds a query string in the given order; undefined values are left out. */
export function buildQueryString(fields: QueryFields): string {
	const entries: ReadonlyArray<readonly [string, QueryValue | undefined]> = Array.isArray(fields)
		? fields
		: Object.entries(fields);
	return entries
		.filter((entry): entry is readonly [string, QueryValue] => entry[1] !== undefined)
		.map(([key, value]) => `${encodeRfc3986(key)}=${encodeRfc3986(String(value))}`)
		.join('&');
}

/** Top-level field names of a raw query string, as PHP parses them ("a[b]=1" names "a"). */
export function queryFieldNames(query: string): string[] {
	if (query === '') return [];
	return query
		.split('&')
		.filter((pair) => pair !== '')
		.map((pair) => {
			const rawName = pair.split('=')[0];
			const name = decodeURIComponent(rawName.replace(/\+/g, ' '));
			const bracket = name.indexOf('[');
			return bracket > 0 ? name.slice(0, bracket) : name;
		})
		.filter((name) => name !== '');
}

/** Top-level field names of a raw JSON body; nested fields do not count. */
export function jsonBodyFieldNames(body: string): string[] {
	if (body.trim() === '') return [];
	const parsed: unknown = JSON.parse(body);
	return parsed !== null && typeof parsed === 'object' ? Object.keys(parsed) : [];
}
