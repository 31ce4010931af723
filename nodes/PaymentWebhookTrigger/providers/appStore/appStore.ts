/**
 * Apple App Store Server Notifications V2, verified offline: the body is
 * `{"signedPayload": <JWS>}`, signed by Apple's certificate chain up to Apple Root CA - G3
 * (pinned; the credential's Root Certificate replaces it, for tests only, and then the credential
 * test, n8n's log at activation and each item say so; never for Production notifications, and
 * never with a test root this repository published). No shared secret: the
 * node's Bundle ID and Environment say which notifications are this endpoint's. No timestamp
 * tolerance: Apple retries a notification for days with its first signature.
 *
 * The transaction ID a purchase and its refund share is the transaction's `transactionId`
 * (readers.ts); the user ID is `appAccountToken`; the event ID is `notificationUUID`.
 */
import { textAt, type EventReaders, type PaymentProvider } from '../../provider';
import {
	APP_STORE_ENVIRONMENTS,
	checkNotification,
	replacedRootOf,
	rootProblem,
	trustedRoot,
} from './notification';
import { purchaseFields, refundFields } from './readers';

/** The notification types it reads, as `notificationType` names them, with their readers. */
const EVENTS = {
	ONE_TIME_CHARGE: {
		kind: 'purchase',
		description: 'A consumable, non-consumable or non-renewing subscription was bought',
		fields: purchaseFields,
	},
	SUBSCRIBED: {
		kind: 'purchase',
		description: 'A subscription started or restarted (a free trial is no purchase)',
		fields: purchaseFields,
	},
	DID_RENEW: {
		kind: 'purchase',
		description: 'A subscription renewed (each renewal is a transaction of its own)',
		fields: purchaseFields,
	},
	REFUND: {
		kind: 'refund',
		description: 'Apple refunded a transaction, fully or prorated (partial)',
		fields: refundFields,
	},
} satisfies EventReaders<string>;

/** The node parameters of this provider, by name. */
const BUNDLE_ID = 'bundleId';
const ENVIRONMENT = 'environment';
const SHOWN = { show: { provider: ['appStore'] } };
const ROOT_NOT_PEM = 'The Root Certificate is not a PEM certificate';

/** Why the node's own parameters cannot select notifications, or null. */
function settingsProblem(bundleId: string, environment: string): string | null {
	if (bundleId.trim() === '') return 'The Bundle ID parameter is empty';
	if (!(APP_STORE_ENVIRONMENTS as readonly string[]).includes(environment)) {
		return `The Environment parameter must be ${APP_STORE_ENVIRONMENTS.join(' or ')}`;
	}
	return null;
}

export const appStore: PaymentProvider<'appStore'> = {
	id: 'appStore',
	name: 'Apple App Store',
	signing: "App Store Server Notifications V2: Apple's signed payload, checked offline; no secret",
	signsTimestamp: false,
	secretProblem: ({ signingSecret, rootCa }) => {
		// A Signing Secret says the credential is another provider's endpoint's.
		if (signingSecret !== '') return 'The Signing Secret is set: Apple App Store uses none';
		if (rootCa === '') return null;
		const root = trustedRoot(rootCa);
		if (root === null) return ROOT_NOT_PEM;
		if (!root.ca) return 'The Root Certificate is not a CA certificate';
		return rootProblem(rootCa);
	},
	verify: ({ rawBody, secrets, settings }) => {
		const bundleId = settings[BUNDLE_ID] ?? '';
		const environment = settings[ENVIRONMENT] ?? '';
		const problem = settingsProblem(bundleId, environment);
		if (problem !== null) return { valid: false, reason: problem, unusableSecret: true };
		const root = trustedRoot(secrets.rootCa);
		if (root === null) {
			return { valid: false, reason: ROOT_NOT_PEM, unusableSecret: true };
		}
		const refusedRoot = rootProblem(secrets.rootCa, environment);
		if (refusedRoot !== null) return { valid: false, reason: refusedRoot, unusableSecret: true };
		const checked = checkNotification(rawBody, root, { bundleId: bundleId.trim(), environment });
		if (!checked.valid) return checked;
		return { valid: true, signedAt: checked.signedAt, messageId: null, body: checked.body };
	},
	parameters: [
		{
			displayName: 'Bundle ID',
			name: BUNDLE_ID,
			type: 'string',
			required: true,
			default: '',
			placeholder: 'com.example.app',
			displayOptions: SHOWN,
			description: "Your app's bundle ID; notifications for another app are refused",
		},
		{
			displayName: 'Environment',
			name: ENVIRONMENT,
			type: 'options',
			options: [
				{ name: 'Production', value: 'Production' },
				{ name: 'Sandbox', value: 'Sandbox' },
			],
			default: 'Production',
			displayOptions: SHOWN,
			description:
				'The App Store environment whose notifications this endpoint takes; the other is refused. Use a second trigger for the sandbox.',
		},
	],
	credentialHelp: {
		field: 'rootCa',
		text: 'Apple App Store: leave empty to trust Apple Root CA - G3 (pinned)',
	},
	replacedRoot: ({ rootCa }) => replacedRootOf(rootCa),
	codexAliases: ['app store', 'apple'],
	eventType: (body) => textAt(body.notificationType),
	eventId: (body) => textAt(body.notificationUUID),
	events: EVENTS,
};
