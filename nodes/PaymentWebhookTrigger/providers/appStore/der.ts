/**
 * The one thing Node's X509Certificate does not tell: whether a certificate carries an extension
 * (Apple marks its App Store signing certificates with private ones). A minimal, strict DER walk
 * down to the TBSCertificate's extensions, and the DER form of an object identifier to compare
 * with. Anything that is not well-formed DER answers "no extension": a check built on it fails
 * closed.
 */

const SEQUENCE = 0x30;
const OBJECT_IDENTIFIER = 0x06;
/** The TBSCertificate's `[3] EXPLICIT Extensions` (RFC 5280, 4.1). */
const EXTENSIONS = 0xa3;

/** One element: its tag, and where its contents start and end in the buffer. */
interface Element {
	tag: number;
	start: number;
	end: number;
}

/** The element at `at`, ending no later than `limit`; null unless it is DER (definite, minimal length). */
function elementAt(der: Uint8Array, at: number, limit: number): Element | null {
	if (at + 2 > limit) return null;
	const tag = der[at];
	// High tag numbers (a continuation byte follows) occur nowhere in a certificate's structure.
	if ((tag & 0x1f) === 0x1f) return null;
	const first = der[at + 1];
	let start = at + 2;
	let length = first;
	if (first & 0x80) {
		const count = first & 0x7f;
		// 0 is BER's indefinite length; more than 4 bytes of length cannot fit any certificate.
		if (count === 0 || count > 4 || start + count > limit || der[start] === 0) return null;
		length = 0;
		for (let index = 0; index < count; index++) length = length * 256 + der[start + index];
		if (length < 0x80) return null;
		start += count;
	}
	const end = start + length;
	return end > limit ? null : { tag, start, end };
}

/** The elements inside a constructed element, in order; null when they do not fill it exactly. */
function childrenOf(der: Uint8Array, parent: Element): Element[] | null {
	const children: Element[] = [];
	let at = parent.start;
	while (at < parent.end) {
		const child = elementAt(der, at, parent.end);
		if (child === null) return null;
		children.push(child);
		at = child.end;
	}
	return children;
}

/** The DER contents of an object identifier in dotted form: 1.2.840.113635.100.6.11.1 → 2a 86 48 … */
export function oidContents(dotted: string): Buffer {
	const arcs = dotted.split('.').map(Number);
	const [first, second, ...rest] = arcs;
	const bytes: number[] = [];
	for (const arc of [first * 40 + second, ...rest]) {
		const base128 = [arc & 0x7f];
		for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128)) {
			base128.unshift((value & 0x7f) | 0x80);
		}
		bytes.push(...base128);
	}
	return Buffer.from(bytes);
}

/** The extension IDs (DER contents) of a DER certificate; null when it is not a well-formed one. */
function extensionIds(certificate: Uint8Array): Buffer[] | null {
	const whole = elementAt(certificate, 0, certificate.length);
	if (whole?.tag !== SEQUENCE || whole.end !== certificate.length) return null;
	const tbs = childrenOf(certificate, whole)?.[0];
	if (tbs?.tag !== SEQUENCE) return null;
	const fields = childrenOf(certificate, tbs);
	if (fields === null) return null;
	const tagged = fields.find((field) => field.tag === EXTENSIONS);
	if (tagged === undefined) return [];
	const wrapped = childrenOf(certificate, tagged);
	if (wrapped?.length !== 1 || wrapped[0].tag !== SEQUENCE) return null;
	const extensions = childrenOf(certificate, wrapped[0]);
	if (extensions === null) return null;
	const ids: Buffer[] = [];
	for (const extension of extensions) {
		const id = extension.tag === SEQUENCE ? childrenOf(certificate, extension)?.[0] : undefined;
		if (id?.tag !== OBJECT_IDENTIFIER) return null;
		ids.push(Buffer.from(certificate.subarray(id.start, id.end)));
	}
	return ids;
}

/** True when the DER certificate carries the extension `oid` (dotted). */
export function hasExtension(certificate: Uint8Array, oid: string): boolean {
	const wanted = oidContents(oid);
	return extensionIds(certificate)?.some((id) => id.equals(wanted)) ?? false;
}
