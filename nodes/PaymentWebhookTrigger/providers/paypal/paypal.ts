/**
 * PayPal REST webhooks, verified before anything runs without asking PayPal to verify: the
 * signing certificate is fetched from PayPal's own hosts only (certificateCache.ts keeps it),
 * checked up to a pinned DigiCert root, and its key checks the signature over the transmission,
 * the webhook ID (the credential's Signing Secret) and the body's CRC32 (verification.ts, which
 * cites PayPal's docs and SDKs). The node's Environment says whose certificate signs (Live or
 * Sandbox). PayPal's verify-webhook-signature API is not called: the check needs no PayPal
 * credential and no answer from PayPal beyond the certificate.
 *
 * The transaction ID a purchase and its refunds share is the capture's ID (Orders v2) or the
 * sale's (Subscriptions); the user ID is the `custom_id` the brand set (readers.ts); the event ID
 * is the event's `id` (WH-…).
 */
import { signingSecretRule, textAt, type EventReaders, type PaymentProvider } from '../../provider';
import { certificateCache } from './certificateCache';
import { disputeResolvedFields, purchaseFields, refundedFields, reversedFields } from './readers';
import {
	checkable,
	ENVIRONMENT,
	LIVE,
	replacedRoot,
	rootCaProblem,
	SANDBOX,
	verifyTransmission,
	WEBHOOK_ID,
} from './verification';

/** The event types it reads, as `event_type` names them, with their readers. */
const EVENTS = {
	'PAYMENT.CAPTURE.COMPLETED': {
		kind: 'purchase',
		description: 'A payment of an order (Orders v2) was captured',
		fields: purchaseFields,
	},
	'PAYMENT.SALE.COMPLETED': {
		kind: 'purchase',
		description: 'A subscription payment was made (each one a sale of its own)',
		fields: purchaseFields,
	},
	'PAYMENT.CAPTURE.REFUNDED': {
		kind: 'refund',
		description: 'A captured payment was refunded, fully or in part',
		fields: refundedFields,
	},
	'PAYMENT.SALE.REFUNDED': {
		kind: 'refund',
		description: 'A subscription payment was refunded, fully or in part',
		fields: refundedFields,
	},
	'PAYMENT.CAPTURE.REVERSED': {
		kind: 'refund',
		description: 'PayPal took a captured payment back (a chargeback): a full reversal',
		fields: reversedFields,
	},
	'CUSTOMER.DISPUTE.RESOLVED': {
		kind: 'refund',
		description: "A dispute was resolved; in the buyer's favour it is a chargeback",
		fields: disputeResolvedFields,
	},
} satisfies EventReaders<string>;

const SHOWN = { show: { provider: ['paypal'] } };

export const paypal: PaymentProvider<'paypal'> = {
	id: 'paypal',
	name: 'PayPal',
	signing:
		"REST webhooks: PayPal's certificate (from PayPal's hosts, pinned roots) signs the transmission, webhook ID and body",
	signsTimestamp: true,
	secretProblem: (secrets) =>
		signingSecretRule((webhookId) =>
			WEBHOOK_ID.test(webhookId)
				? null
				: 'The Signing Secret is not a PayPal webhook ID: letters and digits, as the webhook list of your PayPal app shows it',
		)(secrets) ?? rootCaProblem(secrets.rootCa),
	fetchForCheck: async (request, network): Promise<Record<string, string>> => {
		const ready = checkable(request);
		// A delivery refused before its certificate is needed fetches nothing.
		if ('valid' in ready) return {};
		const { certificateUrl } = ready;
		const certificates = await certificateCache.certificatesAt(
			certificateUrl,
			request.nowSeconds * 1000,
			network,
		);
		return certificates === null ? {} : { certificateUrl, certificates };
	},
	verify: verifyTransmission,
	parameters: [
		{
			displayName: 'Environment',
			name: ENVIRONMENT,
			type: 'options',
			options: [
				{ name: 'Live', value: LIVE },
				{ name: 'Sandbox', value: SANDBOX },
			],
			default: LIVE,
			displayOptions: SHOWN,
			description:
				"Whose notifications this endpoint takes: those signed by PayPal's live certificate, or its sandbox's. Use a second trigger for the sandbox.",
		},
	],
	credentialHelp: {
		field: 'signingSecret',
		text: "PayPal: the webhook's Webhook ID, as your PayPal app's webhook list shows it (PayPal signs with its certificate; the Root Certificate stays empty but for tests)",
	},
	// Only a credential with a webhook ID is a PayPal endpoint's: the Root Certificate of one
	// without replaces another provider's root, not PayPal's.
	replacedRoot: ({ signingSecret, rootCa }) =>
		WEBHOOK_ID.test(signingSecret) ? replacedRoot(rootCa) : null,
	codexAliases: ['paypal'],
	eventType: (body) => textAt(body.event_type),
	eventId: (body) => textAt(body.id),
	events: EVENTS,
};
