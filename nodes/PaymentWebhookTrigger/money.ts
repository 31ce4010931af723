/**
 * Amounts and currencies as the providers send them: whole amounts in the smallest unit (a number,
 * or Paddle's digit string), three-letter codes in either case; and the same amount in major units.
 */

export type RefundType = 'full' | 'partial';

/** Currencies whose smallest unit is the unit itself (Stripe's list; Paddle's JPY and KRW). */
const ZERO_DECIMAL_CURRENCIES = new Set([
	'BIF',
	'CLP',
	'DJF',
	'GNF',
	'JPY',
	'KMF',
	'KRW',
	'MGA',
	'PYG',
	'RWF',
	'UGX',
	'VND',
	'VUV',
	'XAF',
	'XOF',
	'XPF',
]);
/** Currencies with three decimals (a thousandth is their smallest unit). */
const THREE_DECIMAL_CURRENCIES = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

export function currencyDecimals(currency: string): number {
	const code = currency.toUpperCase();
	if (ZERO_DECIMAL_CURRENCIES.has(code)) return 0;
	if (THREE_DECIMAL_CURRENCIES.has(code)) return 3;
	return 2;
}

/** An amount in the smallest unit as a decimal string in major units: 10000 USD → "100.00". */
export function majorUnits(amountMinor: number, currency: string): string {
	const decimals = currencyDecimals(currency);
	const digits = String(Math.abs(amountMinor)).padStart(decimals + 1, '0');
	const sign = amountMinor < 0 ? '-' : '';
	if (decimals === 0) return `${sign}${digits}`;
	return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** A whole amount in the smallest unit, sent as a number (Stripe) or a digit string (Paddle). */
export function minorAt(value: unknown): number | null {
	if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
	if (typeof value === 'string' && /^-?\d+$/.test(value)) {
		const amount = Number(value);
		return Number.isSafeInteger(amount) ? amount : null;
	}
	return null;
}

export function currencyAt(value: unknown): string | null {
	return typeof value === 'string' && /^[A-Za-z]{3}$/.test(value) ? value.toUpperCase() : null;
}

/** Full when the refunded total reaches what was charged; null when either is unknown. */
export function refundTypeOf(refunded: number | null, charged: number | null): RefundType | null {
	if (refunded === null || charged === null) return null;
	return refunded >= charged ? 'full' : 'partial';
}

/** Full or partial by the status a provider names each with; null for any other status. */
export function refundTypeByStatus(
	status: unknown,
	full: string,
	partial: string,
): RefundType | null {
	if (status === full) return 'full';
	if (status === partial) return 'partial';
	return null;
}

/**
 * An amount sent in major units (a JSON number such as 16.66, or its text) in the smallest unit:
 * 16.66 USD → 1666. Read from the decimal text, not by multiplying floats; null when it has more
 * decimals than the currency has or is no plain decimal.
 */
export function minorFromMajor(value: unknown, currency: string | null): number | null {
	if (currency === null) return null;
	const text =
		typeof value === 'number' && Number.isFinite(value)
			? String(value)
			: typeof value === 'string'
				? value
				: null;
	const match = text === null ? null : /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
	if (match === null) return null;
	const [, sign, whole, fraction = ''] = match;
	const decimals = currencyDecimals(currency);
	if (fraction.replace(/0+$/, '').length > decimals) return null;
	const minor = Number(`${sign}${whole}${fraction.padEnd(decimals, '0').slice(0, decimals)}`);
	return Number.isSafeInteger(minor) ? minor : null;
}
