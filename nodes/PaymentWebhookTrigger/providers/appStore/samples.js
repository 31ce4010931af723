// @ts-check
'use strict';
/**
 * The sample notifications of the Apple App Store (Server Notifications V2), decoded: what Apple
 * signs into `signedPayload`, with the transaction and renewal info decoded in
 * `data.transactionInfo` / `data.renewalInfo` (the test signer, support/payment/appStoreChain.js,
 * signs those on their own). Fields as Apple documents JWSTransactionDecodedPayload; prices in
 * milli-units. Read by the tests, not by the node.
 */

const BUNDLE_ID = 'com.example.affiliate';
const ENVIRONMENT = 'Sandbox';
const APP_APPLE_ID = 1234567890;
const PURCHASED_AT = 1795660000000;
/** The buyer's UUID, which the app sets as `appAccountToken` (an ID, not a secret). */
const BUYER_UUID = '5d3b9f2e-6c41-4b8a-9f0e-2a7c1e4d8b10';
/** A whole refund, in revocationPercentage's milli-percent. */
const WHOLE = 100000;

/**
 * @typedef {Record<string, unknown>} Fields
 * @typedef {{ notificationType: string, subtype?: string, notificationUUID: string, version: string,
 *   signedDate?: number, data: { appAppleId: number, bundleId: string, bundleVersion: string,
 *   environment: string, transactionInfo: Fields, renewalInfo?: Fields } }} Notification
 */

/** A one-time purchase (a non-consumable) of 9.99 USD, changed by `fields`. @param {Fields} fields */
const transaction = (fields) => ({
	transactionId: '2000000901000001',
	originalTransactionId: '2000000901000001',
	bundleId: BUNDLE_ID,
	productId: 'com.example.affiliate.pro',
	purchaseDate: PURCHASED_AT,
	originalPurchaseDate: PURCHASED_AT,
	quantity: 1,
	type: 'Non-Consumable',
	appAccountToken: BUYER_UUID,
	inAppOwnershipType: 'PURCHASED',
	environment: ENVIRONMENT,
	storefront: 'USA',
	storefrontId: '143441',
	transactionReason: 'PURCHASE',
	currency: 'USD',
	price: 9990,
	...fields,
});

/** A monthly subscription of 4.99 EUR, changed by `fields`. @param {Fields} fields */
const subscription = (fields) =>
	transaction({
		transactionId: '2000000901000002',
		originalTransactionId: '2000000901000002',
		webOrderLineItemId: '2000000077000001',
		productId: 'com.example.affiliate.monthly',
		subscriptionGroupIdentifier: '21000001',
		type: 'Auto-Renewable Subscription',
		expiresDate: 1798252000000,
		storefront: 'DEU',
		storefrontId: '143443',
		currency: 'EUR',
		price: 4990,
		...fields,
	});

const renewalInfo = {
	originalTransactionId: '2000000901000002',
	autoRenewProductId: 'com.example.affiliate.monthly',
	productId: 'com.example.affiliate.monthly',
	autoRenewStatus: 1,
	environment: ENVIRONMENT,
	recentSubscriptionStartDate: PURCHASED_AT,
	renewalDate: 1798252000000,
};

/**
 * @param {string} notificationType @param {string} notificationUUID @param {Fields} transactionInfo
 * @param {{ subtype?: string, renewal?: Fields }} [options]
 * @returns {Notification}
 */
function notification(notificationType, notificationUUID, transactionInfo, options = {}) {
	return {
		notificationType,
		...(options.subtype && { subtype: options.subtype }),
		notificationUUID,
		version: '2.0',
		data: {
			appAppleId: APP_APPLE_ID,
			bundleId: BUNDLE_ID,
			bundleVersion: '1.0',
			environment: ENVIRONMENT,
			transactionInfo,
			...(options.renewal && { renewalInfo: options.renewal }),
		},
	};
}

const refunded = { revocationDate: 1795700000000, revocationReason: 0 };

/** One sample per notification type the trigger reads. */
const notifications = {
	oneTimeCharge: notification(
		'ONE_TIME_CHARGE',
		'9f1c1a2e-1b6d-4f61-a0a4-000000000001',
		transaction({}),
	),
	subscribed: notification('SUBSCRIBED', '9f1c1a2e-1b6d-4f61-a0a4-000000000002', subscription({}), {
		subtype: 'INITIAL_BUY',
		renewal: renewalInfo,
	}),
	didRenew: notification(
		'DID_RENEW',
		'9f1c1a2e-1b6d-4f61-a0a4-000000000003',
		subscription({
			transactionId: '2000000901000003',
			webOrderLineItemId: '2000000077000002',
			purchaseDate: 1798252000000,
			transactionReason: 'RENEWAL',
		}),
		{ renewal: renewalInfo },
	),
	refund: notification(
		'REFUND',
		'9f1c1a2e-1b6d-4f61-a0a4-000000000004',
		transaction({ ...refunded, revocationType: 'REFUND_FULL', revocationPercentage: WHOLE }),
	),
	// A quarter of the subscription's first month.
	refundProrated: notification(
		'REFUND',
		'9f1c1a2e-1b6d-4f61-a0a4-000000000005',
		subscription({ ...refunded, revocationType: 'REFUND_PRORATED', revocationPercentage: 25000 }),
	),
};

/** An amount in the smallest unit as Apple's milli-units (JPY and KRW have no smaller unit). */
const milliUnits = (/** @type {number} */ amountMinor, /** @type {string} */ currency) =>
	(amountMinor * 1000) / 10 ** (['JPY', 'KRW'].includes(currency) ? 0 : 2);

/**
 * @type {import('../../../../support/payment/signer').Samples & { bundleId: string,
 *   environment: string, appAppleId: number, notifications: Record<string, Notification> }}
 */
module.exports = {
	eventTypes: { purchase: 'ONE_TIME_CHARGE', refund: 'REFUND' },
	sampleEvent(
		kind,
		{ transactionId, userId, amountMinor, currency, partlyRefunded, refundedTotalMinor, eventId },
	) {
		const bought = transaction({
			transactionId,
			originalTransactionId: transactionId,
			appAccountToken: userId,
			currency,
			price: milliUnits(amountMinor, currency),
		});
		if (kind === 'purchase') return notification('ONE_TIME_CHARGE', eventId, bought);
		return notification('REFUND', eventId, {
			...bought,
			...refunded,
			revocationType: partlyRefunded ? 'REFUND_PRORATED' : 'REFUND_FULL',
			revocationPercentage: Math.round((refundedTotalMinor / amountMinor) * WHOLE),
		});
	},
	bundleId: BUNDLE_ID,
	environment: ENVIRONMENT,
	appAppleId: APP_APPLE_ID,
	notifications,
};
