/**
 * Google Play real-time developer notifications (RTDN), delivered by a Pub/Sub push subscription
 * with authentication. Facts, from Google's documentation:
 * - "Real-time developer notifications reference": the push body is
 *   `{"message": {"data": <base64>, "messageId", "publishTime", "attributes"}, "subscription"}`;
 *   `data` decodes to a DeveloperNotification `{version, packageName, eventTimeMillis}` with one of
 *   `oneTimeProductNotification` (notificationType 1 PURCHASED, 2 CANCELED; `purchaseToken`,
 *   `sku`), `subscriptionNotification` (2 RENEWED, 4 PURCHASED, …; `purchaseToken`),
 *   `voidedPurchaseNotification` (`purchaseToken`, `orderId`, `productType`, `refundType` 1
 *   FULL_REFUND, 2 QUANTITY_BASED_PARTIAL_REFUND) or `testNotification`. It names no user, no price
 *   and, for a purchase, no order.
 * - Pub/Sub "Authentication for push subscriptions": `Authorization: Bearer <OIDC JWT>`, RS256,
 *   signed by Google (keys at https://www.googleapis.com/oauth2/v3/certs), claims `iss`
 *   (https://accounts.google.com), `aud` (the subscription's audience), `email` and
 *   `email_verified` (the push service account), `iat`, `exp`. pushToken.ts checks it.
 * - Play Developer API (playApi.ts): purchases.products.get (`orderId`,
 *   `obfuscatedExternalAccountId`), purchases.subscriptionsv2.get (`lineItems[].
 *   latestSuccessfulOrderId`, deprecated `latestOrderId`, `externalAccountIdentifiers.
 *   obfuscatedExternalAccountId`), orders.get (`total`, `orderHistory.partialRefundEvents`,
 *   `refundEvent`); purchases.voidedpurchases documents `voidedReason` 7 Chargeback.
 * Where (read 29 November 2026): developer.android.com/google/play/billing/rtdn-reference,
 * cloud.google.com/pubsub/docs/authenticate-push-subscriptions,
 * developers.google.com/android-publisher/api-ref/rest/v3/orders,
 * developers.google.com/android-publisher/deprecated-apis/latestOrderId.subscription.purchasev2,
 * developers.google.com/android-publisher/api-ref/rest/v3/purchases.voidedpurchases. Not found
 * there, so taken as Google's client libraries and the RTDN reference's tables name them: the
 * notificationType and refundType numbers, and orders.get's `refundEvent.refundReason`
 * `CHARGEBACK` (the notification itself carries no `voidedReason`; only the voided purchases list
 * does, which this provider does not read).
 *
 * The push token authenticates the sender (Pub/Sub), not the bytes: Google signs no body. So
 * everything is checked before anything runs (the token, then the notification's `packageName`),
 * and what the item counts (order, user, amount) comes from the Play Developer API, never from the
 * body (`complete`). No Signing Secret (the signing credential's must be empty, as for the App
 * Store); the node's Package Name, Push Audience and Push Service Account say which pushes are
 * this endpoint's. No timestamp tolerance: the token's `exp` bounds a replay.
 *
 * The API is read with a credential of this package's own, Google Play Developer API (the service
 * account's JSON key): a community node may not use n8n's own Google credentials (n8n's lint,
 * `@n8n/community-nodes/no-credential-reuse`). Its "Google Endpoints (Tests Only)" replaces
 * Google's hosts with the sandbox's emulation on the loopback only, and the trigger says so.
 */
import {
	objectAt,
	textAt,
	type EventReaders,
	type JsonObject,
	type PaymentProvider,
} from '../../provider';
import { apiCredentialProblem, endpointsOf, playApiOf, replacedEndpoints } from './playApi';
import { keysFor, pushTokenOf, pushTokenProblem } from './pushToken';
import { purchaseFields, refundFields } from './readers';

export const GOOGLE_PLAY_API_CREDENTIAL = 'googlePlayApi';

/** The node parameters of this provider, by name. */
const PACKAGE_NAME = 'packageName';
const PUSH_AUDIENCE = 'pushAudience';
const PUSH_SERVICE_ACCOUNT = 'pushServiceAccount';
const SHOWN = { show: { provider: ['googlePlay'] } };

const ONE_TIME_TYPES: Record<number, string> = { 1: 'PURCHASED', 2: 'CANCELED' };
const SUBSCRIPTION_TYPES: Record<number, string> = {
	1: 'RECOVERED',
	2: 'RENEWED',
	3: 'CANCELED',
	4: 'PURCHASED',
	5: 'ON_HOLD',
	6: 'IN_GRACE_PERIOD',
	7: 'RESTARTED',
	8: 'PRICE_CHANGE_CONFIRMED',
	9: 'DEFERRED',
	10: 'PAUSED',
	11: 'PAUSE_SCHEDULE_CHANGED',
	12: 'REVOKED',
	13: 'EXPIRED',
	20: 'PENDING_PURCHASE_CANCELED',
};

/**
 * The event type of a notification: its kind and its type's name (ONE_TIME_PRODUCT_PURCHASED,
 * SUBSCRIPTION_RENEWED, VOIDED_PURCHASE, TEST_NOTIFICATION, …).
 */
function eventTypeOf(body: JsonObject): string | null {
	const named = (prefix: string, names: Record<number, string>, value: unknown) => {
		const type = objectAt(value)?.notificationType;
		return typeof type === 'number' ? `${prefix}_${names[type] ?? String(type)}` : null;
	};
	if (body.oneTimeProductNotification !== undefined) {
		return named('ONE_TIME_PRODUCT', ONE_TIME_TYPES, body.oneTimeProductNotification);
	}
	if (body.subscriptionNotification !== undefined) {
		return named('SUBSCRIPTION', SUBSCRIPTION_TYPES, body.subscriptionNotification);
	}
	if (body.voidedPurchaseNotification !== undefined) return 'VOIDED_PURCHASE';
	if (body.testNotification !== undefined) return 'TEST_NOTIFICATION';
	return null;
}

/** The notification types it reads, with their readers; TEST_NOTIFICATION is none of them. */
const EVENTS = {
	ONE_TIME_PRODUCT_PURCHASED: {
		kind: 'purchase',
		description: 'A one-time product was bought (oneTimeProductNotification type 1)',
		fields: purchaseFields,
	},
	SUBSCRIPTION_PURCHASED: {
		kind: 'purchase',
		description: 'A subscription was bought (subscriptionNotification type 4)',
		fields: purchaseFields,
	},
	SUBSCRIPTION_RENEWED: {
		kind: 'purchase',
		description: 'A subscription renewed, an order of its own (subscriptionNotification type 2)',
		fields: purchaseFields,
	},
	VOIDED_PURCHASE: {
		kind: 'refund',
		description: 'A purchase was refunded, fully or by quantity, or charged back',
		fields: refundFields,
	},
} satisfies EventReaders<string>;

/** The push body, its notification decoded; null when the body is no Pub/Sub push of JSON. */
function pushOf(rawBody: Uint8Array): JsonObject | null {
	try {
		const push = objectAt(JSON.parse(Buffer.from(rawBody).toString('utf8')));
		const message = objectAt(push?.message);
		if (typeof message?.data !== 'string') return null;
		const notification = objectAt(JSON.parse(Buffer.from(message.data, 'base64').toString('utf8')));
		if (notification === null) return null;
		return {
			...notification,
			pubsub: {
				messageId: message.messageId ?? message.message_id ?? null,
				publishTime: message.publishTime ?? message.publish_time ?? null,
				subscription: push?.subscription ?? null,
			},
		};
	} catch {
		return null;
	}
}

/** Why the node's own parameters cannot select pushes, or null. */
function settingsProblem(settings: Readonly<Record<string, string>>): string | null {
	if ((settings[PACKAGE_NAME] ?? '').trim() === '') return 'The Package Name parameter is empty';
	if ((settings[PUSH_AUDIENCE] ?? '').trim() === '') return 'The Push Audience parameter is empty';
	if ((settings[PUSH_SERVICE_ACCOUNT] ?? '').trim() === '') {
		return 'The Push Service Account parameter is empty';
	}
	return null;
}

/** The Play Developer API's answers the readers need, added to the body as `playApi`. */
async function completed(body: JsonObject, api: ReturnType<typeof playApiOf>): Promise<JsonObject> {
	const type = eventTypeOf(body);
	const path = encodeURIComponent;
	if (type === 'ONE_TIME_PRODUCT_PURCHASED') {
		const n = objectAt(body.oneTimeProductNotification) ?? {};
		const purchase = await api.get(
			`purchases/products/${path(String(n.sku))}/tokens/${path(String(n.purchaseToken))}`,
			'purchases.products.get',
		);
		const orderId = textAt(purchase.orderId);
		// No order (Google gives none to some purchases): nothing to count, the item is `other`.
		if (orderId === null) return { ...body, playApi: { purchase } };
		const order = await api.get(`orders/${path(orderId)}`, 'orders.get');
		return { ...body, playApi: { purchase, order } };
	}
	if (type === 'SUBSCRIPTION_PURCHASED' || type === 'SUBSCRIPTION_RENEWED') {
		const n = objectAt(body.subscriptionNotification) ?? {};
		const purchase = await api.get(
			`purchases/subscriptionsv2/tokens/${path(String(n.purchaseToken))}`,
			'purchases.subscriptionsv2.get',
		);
		const items = Array.isArray(purchase.lineItems) ? purchase.lineItems.map(objectAt) : [];
		const orderId =
			items.map((item) => textAt(item?.latestSuccessfulOrderId)).find((id) => id !== null) ??
			textAt(purchase.latestOrderId);
		if (orderId === null) return { ...body, playApi: { purchase } };
		const order = await api.get(`orders/${path(orderId)}`, 'orders.get');
		return { ...body, playApi: { purchase, order } };
	}
	if (type === 'VOIDED_PURCHASE') {
		const orderId = textAt(objectAt(body.voidedPurchaseNotification)?.orderId);
		const order = await api.get(`orders/${path(String(orderId))}`, 'orders.get');
		return { ...body, playApi: { order } };
	}
	return body;
}

export const googlePlay: PaymentProvider<'googlePlay'> = {
	id: 'googlePlay',
	name: 'Google Play',
	signing:
		"Real-time developer notifications over Pub/Sub push: Google's OIDC token checked; no secret",
	signsTimestamp: false,
	secretProblem: ({ signingSecret }) =>
		signingSecret === '' ? null : 'The Signing Secret is set: Google Play uses none',
	fetchForCheck: async ({ headers, api, nowSeconds }, network): Promise<Record<string, string>> => {
		const token = pushTokenOf(headers);
		const resolved = endpointsOf(api);
		// No token, or an override off the loopback: nothing is fetched, and `verify` refuses.
		if (token === null || 'problem' in resolved) return {};
		const keys = await keysFor(
			resolved.endpoints.keys,
			token.header.kid,
			network,
			nowSeconds * 1000,
		);
		return { keys };
	},
	verify: ({ rawBody, headers, settings, fetched, api, nowSeconds }) => {
		const problem = settingsProblem(settings) ?? apiCredentialProblem(api);
		if (problem !== null) return { valid: false, reason: problem, unusableSecret: true };
		const push = pushOf(rawBody);
		if (push === null) {
			return { valid: false, reason: 'the body is not a Pub/Sub push of JSON', status: 400 };
		}
		const refused = pushTokenProblem(
			pushTokenOf(headers),
			fetched?.keys,
			{
				audience: settings[PUSH_AUDIENCE].trim(),
				serviceAccount: settings[PUSH_SERVICE_ACCOUNT].trim(),
			},
			nowSeconds,
		);
		if (refused !== null) return { valid: false, reason: refused };
		if (push.packageName !== settings[PACKAGE_NAME].trim()) {
			return { valid: false, reason: 'the notification is for another package name' };
		}
		return {
			valid: true,
			signedAt: null,
			messageId: textAt(objectAt(push.pubsub)?.messageId),
			body: push,
		};
	},
	complete: async (body, { network, api, settings, nowSeconds }) =>
		await completed(body, playApiOf(api, settings[PACKAGE_NAME].trim(), network, nowSeconds)),
	apiCredential: GOOGLE_PLAY_API_CREDENTIAL,
	apiCredentialProblem,
	parameters: [
		{
			displayName: 'Package Name',
			name: PACKAGE_NAME,
			type: 'string',
			required: true,
			default: '',
			placeholder: 'com.example.app',
			displayOptions: SHOWN,
			description: "Your app's package name; notifications for another app are refused",
		},
		{
			displayName: 'Push Audience',
			name: PUSH_AUDIENCE,
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://n8n.example.com/webhook/…/webhook',
			displayOptions: SHOWN,
			description:
				"The audience set on the Pub/Sub push subscription's authentication (the push endpoint's URL unless you set another); a token for another is refused",
		},
		{
			displayName: 'Push Service Account',
			name: PUSH_SERVICE_ACCOUNT,
			type: 'string',
			required: true,
			default: '',
			placeholder: 'rtdn-push@my-project.iam.gserviceaccount.com',
			displayOptions: SHOWN,
			description:
				'The service account the push subscription authenticates as; a token of another is refused',
		},
	],
	credentialHelp: {
		field: 'signingSecret',
		text: 'Google Play: leave empty (Google signs each push with its own keys; the Google Play Developer API credential reads the order)',
	},
	replacedRoot: (_secrets, api) => replacedEndpoints(api),
	codexAliases: ['google play', 'play store', 'android', 'pub/sub'],
	eventType: eventTypeOf,
	eventId: (body, messageId) => textAt(objectAt(body.pubsub)?.messageId) ?? messageId,
	events: EVENTS,
};
