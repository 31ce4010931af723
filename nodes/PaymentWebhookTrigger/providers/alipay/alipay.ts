/**
 * Alipay asynchronous notifications (异步通知). The body is form-encoded, UTF-8. Alipay signs
 * with RSA2 (SHA256withRSA, base64 in the field `sign`) the fields without `sign` and `sign_type`,
 * their values decoded, those with a value sorted by name and joined as `name=value` with `&`;
 * the app's Alipay public key (支付宝公钥) verifies it. The order of the fields and how each
 * character is percent-encoded are not signed: only the decoded values are.
 *
 * A purchase and its refund share the merchant's order number, `out_trade_no`. The user ID is
 * `passback_params`, which only the merchant's server sets when it creates the order (URL-encoded
 * there, so decoded once more here).
 */
import { refundTypeOf } from '../../money';
import {
	textAt,
	type DeliveryRequest,
	type EventFields,
	type JsonObject,
	type PaymentProvider,
	type ProviderSecrets,
	type RefusalStatus,
	type Verification,
} from '../../provider';
import { rsaPublicKey, rsaPublicKeyProblem, rsaSha256Verifies } from '../../rsa';

/** The node parameter that holds the app's ID (APPID), which every notification must name. */
export const APP_ID_PARAMETER = 'appId';

/** The fields the signature does not cover. */
const UNSIGNED_FIELDS = new Set(['sign', 'sign_type']);
const SIGN_TYPE = 'RSA2';
const UTF8 = new Set(['utf-8', 'utf8']);
/** Alipay's amounts are yuan with up to two decimals, in CNY. */
const YUAN = /^(\d{1,13})(?:\.(\d{1,2}))?$/;
const CURRENCY = 'CNY';
/** `notify_time`, China Standard Time (UTC+8). */
const NOTIFY_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const CHINA_OFFSET_SECONDS = 8 * 3600;

/** The event type this package gives a refund notification: Alipay names none of its own. */
export const REFUND_EVENT = 'REFUND';

export function alipaySecretProblem(secrets: ProviderSecrets): string | null {
	return rsaPublicKeyProblem(secrets.publicKey, 'Public Key');
}

const refuse = (reason: string, status: RefusalStatus = 401): Verification => ({
	valid: false,
	reason,
	status,
});

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The form's fields, decoded as URLSearchParams does (`+` is a space); null when a name repeats. */
export function formFields(rawBody: Uint8Array): Map<string, string> | null {
	let text: string;
	try {
		text = utf8.decode(rawBody);
	} catch {
		// Not UTF-8: refused by the caller as a body Alipay does not send.
		return null;
	}
	const fields = new Map<string, string>();
	for (const [name, value] of new URLSearchParams(text)) {
		if (fields.has(name)) return null;
		fields.set(name, value);
	}
	return fields;
}

/** The text Alipay signs: the signed fields that have a value, sorted by name, `name=value` joined with `&`. */
export function signedContent(fields: ReadonlyMap<string, string>): string {
	return [...fields]
		.filter(([name, value]) => !UNSIGNED_FIELDS.has(name) && value !== '')
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([name, value]) => `${name}=${value}`)
		.join('&');
}

/** `notify_time` in Unix seconds, or null. */
function notifiedAt(value: string | undefined): number | null {
	const parts = NOTIFY_TIME.exec(value ?? '');
	if (parts === null) return null;
	const [year, month, day, hour, minute, second] = parts.slice(1).map(Number);
	return Date.UTC(year, month - 1, day, hour, minute, second) / 1000 - CHINA_OFFSET_SECONDS;
}

/**
 * Checks one notification: the form, the signature, the app. On success `body` is the form's
 * fields as an object of strings. Alipay signs no time it could be held to (`notify_time` is
 * reported as `signedAt`, not checked), so no tolerance applies: a repeat is the same notification.
 */
export function verifyAlipay(request: DeliveryRequest): Verification {
	const problem = alipaySecretProblem(request.secrets);
	const key = problem === null ? rsaPublicKey(request.secrets.publicKey) : null;
	if (key === null) return { valid: false, reason: problem ?? '', unusableSecret: true };
	const appId = (request.settings[APP_ID_PARAMETER] ?? '').trim();
	if (appId === '') {
		return { valid: false, reason: 'Parameter "App ID" is empty', unusableSecret: true };
	}
	const fields = formFields(request.rawBody);
	if (fields === null) return refuse('the body is no UTF-8 form with each field once', 400);
	const charset = fields.get('charset');
	if (charset !== undefined && !UTF8.has(charset.toLowerCase())) {
		return refuse('the notification is not UTF-8 (its charset field)', 400);
	}
	const signature = fields.get('sign') ?? '';
	if (signature === '') return refuse('missing sign field');
	const signType = fields.get('sign_type');
	if (signType !== undefined && signType !== SIGN_TYPE) {
		return refuse(`sign_type is not ${SIGN_TYPE}`);
	}
	if (!rsaSha256Verifies(key, Buffer.from(signedContent(fields), 'utf8'), signature)) {
		return refuse('sign does not match the fields and the Public Key');
	}
	if (fields.get('app_id') !== appId) {
		return refuse('the notification is for another app (app_id is not the App ID)');
	}
	return {
		valid: true,
		signedAt: notifiedAt(fields.get('notify_time')),
		messageId: fields.get('notify_id') ?? null,
		body: Object.fromEntries(fields),
	};
}

/** A refund notification carries the refunded total and its time; its trade_status is the trade's. */
export const isRefund = (body: JsonObject): boolean =>
	textAt(body.refund_fee) !== null && textAt(body.gmt_refund) !== null;

/** The event type: REFUND for a refund notification, else `trade_status`. */
export const alipayEventType = (body: JsonObject): string | null =>
	isRefund(body) ? REFUND_EVENT : textAt(body.trade_status);

/** An amount in yuan ("88.80") in fen (8880), or null. */
export function fenOf(value: unknown): number | null {
	const parts = typeof value === 'string' ? YUAN.exec(value) : null;
	if (parts === null) return null;
	return Number(parts[1]) * 100 + Number((parts[2] ?? '').padEnd(2, '0'));
}

/** `passback_params`, which the merchant URL-encodes when it creates the order. */
function passbackOf(body: JsonObject): string | null {
	const value = textAt(body.passback_params);
	if (value === null) return null;
	try {
		return textAt(decodeURIComponent(value));
	} catch {
		// Not percent-encoded after all (a lone %): the value as Alipay sent it.
		return value;
	}
}

export function purchaseFields(body: JsonObject): EventFields {
	return {
		transactionId: textAt(body.out_trade_no),
		amountMinor: fenOf(body.total_amount),
		currency: CURRENCY,
		userId: passbackOf(body),
	};
}

/** `refund_fee` is the order's refunded total so far: full when it reaches `total_amount`. */
export function refundFields(body: JsonObject): EventFields {
	const refunded = fenOf(body.refund_fee);
	const total = fenOf(body.total_amount);
	return {
		refundType: refundTypeOf(refunded, total),
		// `out_biz_no`: the refund request's number (the refund's `out_request_no`), which names
		// each refund of the trade; Alipay sends no refund ID of its own.
		refundId: textAt(body.out_biz_no),
		transactionId: textAt(body.out_trade_no),
		amountMinor: refunded,
		refundedTotalMinor: refunded,
		paidMinor: total,
		currency: CURRENCY,
		userId: passbackOf(body),
	};
}

/** Alipay stops resending once it reads exactly this body. */
const RECEIVED = 'success';

export const alipay: PaymentProvider<'alipay'> = {
	id: 'alipay',
	name: 'Alipay',
	signing: "Form field sign (RSA2); the app's Alipay public key",
	signsTimestamp: false,
	secretProblem: alipaySecretProblem,
	verify: verifyAlipay,
	parameters: [
		{
			displayName: 'App ID',
			name: APP_ID_PARAMETER,
			type: 'string',
			required: true,
			default: '',
			placeholder: '2021000117600001',
			displayOptions: { show: { provider: ['alipay'] } },
			description:
				"The app's APPID on Alipay's Open Platform: a notification for another is refused",
		},
		{
			displayName:
				"Alipay resends a notification for 25 hours until it reads the text success. Respond Immediately answers success once the notification is verified. With 'Respond to Webhook', answer the text success after your tracking node. When Last Node Finishes answers JSON, never success: do not use it.",
			name: 'alipayAnswerNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { provider: ['alipay'] } },
		},
	],
	answers: {
		accepted: { status: 200, body: RECEIVED },
		refused: (status) => ({ status, body: 'fail' }),
	},
	credentialHelp: {
		field: 'publicKey',
		text: "Alipay: the app's Alipay public key (支付宝公钥), base64 as Alipay shows it or PEM",
	},
	codexAliases: ['alipay', '支付宝'],
	eventType: alipayEventType,
	eventId: (body) => textAt(body.notify_id),
	events: {
		TRADE_SUCCESS: { kind: 'purchase', description: 'The trade is paid', fields: purchaseFields },
		TRADE_FINISHED: {
			kind: 'purchase',
			description:
				'The trade is paid and can no longer be refunded (after TRADE_SUCCESS for the same order, where refunds are allowed)',
			fields: purchaseFields,
		},
		[REFUND_EVENT]: {
			kind: 'refund',
			name: 'REFUND',
			description:
				'A refund: the notification carries refund_fee and gmt_refund (trade_status TRADE_SUCCESS after a partial refund, TRADE_CLOSED after a full one)',
			fields: refundFields,
		},
	},
};
