/**
 * WeChat Pay API v3 notifications to a directly connected merchant (直连商户). The JSON body is
 * signed with SHA256withRSA over `<Wechatpay-Timestamp>\n<Wechatpay-Nonce>\n<body>\n` (base64 in
 * `Wechatpay-Signature`) by the WeChat Pay public key whose ID is `Wechatpay-Serial`; its
 * `resource` is encrypted with AEAD_AES_256_GCM under the merchant's APIv3 key, with the
 * resource's `nonce` and `associated_data`, the 16-byte tag at the end of the base64 ciphertext.
 *
 * A purchase and its refund share the merchant's order number, `out_trade_no`. The user ID is
 * `attach`, which only the merchant's server sets when it places the order.
 */
import { createDecipheriv } from 'node:crypto';

import { checkAge, headerValue, UNIX_SECONDS } from '../../hmac';
import { currencyAt, minorAt, refundTypeOf } from '../../money';
import {
	objectAt,
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

/** The node parameter that holds the merchant's ID (商户号), which every notification must name. */
export const MERCHANT_ID_PARAMETER = 'merchantId';

const HEADERS = {
	timestamp: 'Wechatpay-Timestamp',
	nonce: 'Wechatpay-Nonce',
	signature: 'Wechatpay-Signature',
	serial: 'Wechatpay-Serial',
} as const;

const RESOURCE_ALGORITHM = 'AEAD_AES_256_GCM';
const APIV3_KEY_BYTES = 32;
const GCM_TAG_BYTES = 16;
/** WeChat Pay's domestic API settles in yuan; its refund notification names no currency. */
const DEFAULT_CURRENCY = 'CNY';

/** Why the credential cannot check WeChat Pay notifications, or null. */
export function wechatPaySecretProblem(secrets: ProviderSecrets): string | null {
	const keyProblem = rsaPublicKeyProblem(secrets.publicKey, 'Public Key');
	if (keyProblem !== null) return keyProblem;
	if (secrets.publicKeyId.trim() === '') return 'The Public Key ID is empty';
	if (Buffer.byteLength(secrets.decryptionSecret, 'utf8') !== APIV3_KEY_BYTES) {
		return `The Decryption Secret is not an APIv3 key: that has ${APIV3_KEY_BYTES} characters`;
	}
	return null;
}

const refuse = (reason: string, status: RefusalStatus = 401): Verification => ({
	valid: false,
	reason,
	status,
});

/**
 * The resource's plain content, or why it is refused: a resource of another form is no
 * notification (400); one that does not decrypt was sealed under another APIv3 key (401).
 */
export function decryptResource(
	resource: JsonObject,
	apiV3Key: string,
): { content: JsonObject } | { refusal: Verification } {
	const { algorithm, ciphertext, nonce } = resource;
	const associatedData = resource.associated_data ?? '';
	if (algorithm !== RESOURCE_ALGORITHM) {
		return { refusal: refuse(`the resource is not ${RESOURCE_ALGORITHM}`, 400) };
	}
	if (typeof ciphertext !== 'string' || typeof nonce !== 'string' || nonce === '') {
		return { refusal: refuse('the resource lacks its ciphertext or nonce', 400) };
	}
	if (typeof associatedData !== 'string') {
		return { refusal: refuse('the resource has no associated_data text', 400) };
	}
	const sealed = Buffer.from(ciphertext, 'base64');
	if (sealed.length <= GCM_TAG_BYTES) {
		return { refusal: refuse('the resource ciphertext is shorter than its tag', 400) };
	}
	let plain: Buffer;
	try {
		const decipher = createDecipheriv(
			'aes-256-gcm',
			Buffer.from(apiV3Key, 'utf8'),
			Buffer.from(nonce, 'utf8'),
			{ authTagLength: GCM_TAG_BYTES },
		);
		decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG_BYTES));
		decipher.setAAD(Buffer.from(associatedData, 'utf8'));
		plain = Buffer.concat([
			decipher.update(sealed.subarray(0, sealed.length - GCM_TAG_BYTES)),
			decipher.final(),
		]);
	} catch {
		// The tag does not match: another APIv3 key sealed it (or it was altered).
		return {
			refusal: refuse('the resource does not decrypt with the APIv3 key (Decryption Secret)'),
		};
	}
	const content = jsonObjectOf(plain);
	return content === null
		? { refusal: refuse('the decrypted resource is not a JSON object', 400) }
		: { content };
}

function jsonObjectOf(bytes: Uint8Array): JsonObject | null {
	try {
		return objectAt(JSON.parse(Buffer.from(bytes).toString('utf8')));
	} catch {
		// Not JSON: the caller refuses it as a body of another form.
		return null;
	}
}

/**
 * Checks one notification: the headers, the signature over the exact bytes, the timestamp, then
 * the resource and its merchant. On success `body` is the notification with `resource` replaced
 * by its decrypted content.
 */
export function verifyWechatPay(request: DeliveryRequest): Verification {
	const { secrets, rawBody } = request;
	const problem = wechatPaySecretProblem(secrets);
	const key = problem === null ? rsaPublicKey(secrets.publicKey) : null;
	if (key === null) return { valid: false, reason: problem ?? '', unusableSecret: true };
	const merchantId = (request.settings[MERCHANT_ID_PARAMETER] ?? '').trim();
	if (merchantId === '') {
		return { valid: false, reason: 'Parameter "Merchant ID" is empty', unusableSecret: true };
	}
	const values: Partial<Record<keyof typeof HEADERS, string>> = {};
	for (const [field, name] of Object.entries(HEADERS) as Array<[keyof typeof HEADERS, string]>) {
		const value = headerValue(request.headers, name.toLowerCase())?.trim();
		if (value === undefined || value === '') return refuse(`missing ${name} header`);
		values[field] = value;
	}
	const { timestamp = '', nonce = '', signature = '', serial = '' } = values;
	if (serial !== secrets.publicKeyId.trim()) {
		return refuse(`${HEADERS.serial} names another key than the Public Key ID`);
	}
	if (!UNIX_SECONDS.test(timestamp)) return refuse(`malformed ${HEADERS.timestamp} header`);
	const signed = Buffer.concat([
		Buffer.from(`${timestamp}\n${nonce}\n`, 'utf8'),
		rawBody,
		Buffer.from('\n', 'utf8'),
	]);
	if (!rsaSha256Verifies(key, signed, signature)) {
		return refuse(`${HEADERS.signature} does not match the body and the Public Key`);
	}
	const age = checkAge(Number(timestamp), request, null);
	if (!age.valid) return age;

	const notification = jsonObjectOf(rawBody);
	const resource = objectAt(notification?.resource);
	if (notification === null || resource === null) {
		return refuse('the signed body is no notification with a resource', 400);
	}
	const decrypted = decryptResource(resource, secrets.decryptionSecret);
	if ('refusal' in decrypted) return decrypted.refusal;
	if (textAt(decrypted.content.mchid) !== merchantId) {
		return refuse('the notification is for another merchant (mchid is not the Merchant ID)');
	}
	return {
		valid: true,
		signedAt: Number(timestamp),
		messageId: textAt(notification.id),
		body: { ...notification, resource: decrypted.content },
	};
}

/** The decrypted resource of a verified notification's body. */
const resourceOf = (body: JsonObject): JsonObject | null => objectAt(body.resource);

/** TRANSACTION.SUCCESS: a paid order (trade_state SUCCESS), in fen. */
export function transactionFields(body: JsonObject): EventFields | null {
	const transaction = resourceOf(body);
	if (transaction === null) return null;
	const amount = objectAt(transaction.amount);
	return {
		counts: transaction.trade_state === 'SUCCESS',
		transactionId: textAt(transaction.out_trade_no),
		amountMinor: minorAt(amount?.total),
		currency: currencyAt(amount?.currency) ?? DEFAULT_CURRENCY,
		userId: typeof transaction.attach === 'string' ? textAt(transaction.attach) : null,
	};
}

/** REFUND.SUCCESS: a refund that reached the buyer (refund_status SUCCESS), full when all of the total. */
export function refundFields(body: JsonObject): EventFields | null {
	const refund = resourceOf(body);
	if (refund === null) return null;
	const amount = objectAt(refund.amount);
	const refunded = minorAt(amount?.refund);
	const total = minorAt(amount?.total);
	return {
		counts: refund.refund_status === 'SUCCESS',
		refundType: refundTypeOf(refunded, total),
		// WeChat Pay's refund ID (微信支付退款单号); `amount.refund` is this refund's, the order's
		// `amount.total` what it paid. No refunded total so far is sent.
		refundId: textAt(refund.refund_id),
		transactionId: textAt(refund.out_trade_no),
		amountMinor: refunded,
		refundedTotalMinor: null,
		paidMinor: total,
		currency: currencyAt(amount?.currency) ?? DEFAULT_CURRENCY,
	};
}

/** What WeChat Pay reads in a refusal (`code` FAIL makes it retry); nothing says why. */
const FAIL_MESSAGES: Record<RefusalStatus, string> = {
	401: 'Invalid notification signature',
	400: 'Invalid notification body',
};

export const wechatPay: PaymentProvider<'wechatPay'> = {
	id: 'wechatPay',
	name: 'WeChat Pay',
	signing:
		'Wechatpay-Signature header (API v3); the WeChat Pay public key, its ID and the APIv3 key',
	signsTimestamp: true,
	secretProblem: wechatPaySecretProblem,
	verify: verifyWechatPay,
	parameters: [
		{
			displayName: 'Merchant ID',
			name: MERCHANT_ID_PARAMETER,
			type: 'string',
			required: true,
			default: '',
			placeholder: '1900000109',
			displayOptions: { show: { provider: ['wechatPay'] } },
			description: 'Your WeChat Pay merchant ID (商户号): a notification for another is refused',
		},
	],
	// Accepted: n8n's 200 is what WeChat Pay reads as received.
	answers: {
		refused: (status) => ({ status, body: { code: 'FAIL', message: FAIL_MESSAGES[status] } }),
	},
	credentialHelp: {
		field: 'publicKey',
		text: 'WeChat Pay: the WeChat Pay public key (PEM), its ID PUB_KEY_ID_… and the APIv3 key',
	},
	codexAliases: ['wechat pay', 'weixin pay', '微信支付'],
	eventType: (body) => textAt(body.event_type),
	eventId: (body) => textAt(body.id),
	events: {
		'TRANSACTION.SUCCESS': {
			kind: 'purchase',
			description: 'An order was paid',
			fields: transactionFields,
		},
		'REFUND.SUCCESS': {
			kind: 'refund',
			description: 'A refund reached the buyer',
			fields: refundFields,
		},
	},
};
