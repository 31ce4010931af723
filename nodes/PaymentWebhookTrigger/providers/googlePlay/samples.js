// @ts-check
'use strict';
/**
 * The sample notifications of Google Play, as the readers get them: the DeveloperNotification
 * (decoded from the push's `message.data`), the push's `pubsub` facts (messageId, publishTime,
 * subscription), and `playApi`, the Play Developer API's answers the trigger's `complete` adds
 * (purchases.products.get or purchases.subscriptionsv2.get as `purchase`, orders.get as `order`).
 * The test signer (support/payment/signers/googlePlay.js) sends the notification as Pub/Sub pushes
 * it and puts `playApi` in the sandbox's emulated API. Read by the tests, not by the node.
 */

const PACKAGE_NAME = 'com.example.affiliate';
const PRODUCT_ID = 'com.example.affiliate.pro';
const SUBSCRIPTION = 'projects/example-project/subscriptions/play-rtdn-push';
const EVENT_TIME_MS = 1795660000000;

/** @typedef {Record<string, any>} Fields */

/** The purchase token Google would give the app for `orderId`'s purchase. @param {string} orderId */
const tokenOf = (orderId) => `emulated-token.${Buffer.from(orderId).toString('base64url')}`;

/** An amount in the smallest unit as google.type.Money. @param {number} minor @param {string} currency */
function money(minor, currency) {
	const decimals = ['JPY', 'KRW'].includes(currency) ? 0 : 2;
	const scale = 10 ** decimals;
	return {
		currencyCode: currency,
		units: String(Math.floor(minor / scale)),
		nanos: (minor % scale) * 10 ** (9 - decimals),
	};
}

/**
 * The notification, the push's facts and the API's answers.
 * @param {Fields} notification @param {string} eventId @param {Fields} playApi
 */
function completed(notification, eventId, playApi) {
	return {
		version: '1.0',
		packageName: PACKAGE_NAME,
		eventTimeMillis: String(EVENT_TIME_MS),
		...notification,
		pubsub: {
			messageId: eventId,
			publishTime: new Date(EVENT_TIME_MS).toISOString(),
			subscription: SUBSCRIPTION,
		},
		playApi,
	};
}

/** orders.get for an order of `minor` in `currency`, its history changed by `history`. */
function order(
	/** @type {string} */ orderId,
	/** @type {number} */ minor,
	/** @type {string} */ currency,
	history = {},
	state = 'PROCESSED',
) {
	return {
		orderId,
		purchaseToken: tokenOf(orderId),
		state,
		createTime: new Date(EVENT_TIME_MS).toISOString(),
		total: money(minor, currency),
		tax: money(0, currency),
		orderHistory: {
			processedEvent: { eventTime: new Date(EVENT_TIME_MS).toISOString() },
			...history,
		},
	};
}

/** purchases.products.get of a one-time purchase. @param {string} orderId @param {string} userId */
const productPurchase = (orderId, userId) => ({
	kind: 'androidpublisher#productPurchase',
	purchaseTimeMillis: String(EVENT_TIME_MS),
	purchaseState: 0,
	consumptionState: 0,
	orderId,
	acknowledgementState: 1,
	obfuscatedExternalAccountId: userId,
	quantity: 1,
	regionCode: 'US',
});

/** A partial refund event of orders.get's history, the `index`th. @param {number} index @param {number} minor @param {string} currency */
const partialRefundEvent = (index, minor, currency) => ({
	createTime: new Date(EVENT_TIME_MS + (index + 1) * 86_400_000).toISOString(),
	processTime: new Date(EVENT_TIME_MS + (index + 1) * 86_400_000).toISOString(),
	state: 'PROCESSED',
	refundDetails: { total: money(minor, currency), tax: money(0, currency) },
});

/** @type {import('../../../../support/payment/signer').Samples & { packageName: string, tokenOf: typeof tokenOf, money: typeof money, subscriptionPurchase: Fields }} */
module.exports = {
	eventTypes: { purchase: 'ONE_TIME_PRODUCT_PURCHASED', refund: 'VOIDED_PURCHASE' },
	otherEvent: completed({ testNotification: { version: '1.0' } }, 'msg_test_1', {}),
	sampleEvent(
		kind,
		{
			transactionId,
			userId,
			amountMinor,
			currency,
			partial,
			refundedMinor,
			refundedTotalMinor,
			eventId,
		},
	) {
		const purchaseToken = tokenOf(transactionId);
		if (kind === 'purchase') {
			return completed(
				{
					oneTimeProductNotification: {
						version: '1.0',
						notificationType: 1,
						purchaseToken,
						sku: PRODUCT_ID,
					},
				},
				eventId,
				{
					purchase: productPurchase(transactionId, userId),
					order: order(transactionId, amountMinor, currency),
				},
			);
		}
		const earlier = refundedTotalMinor - refundedMinor;
		const history = partial
			? {
					partialRefundEvents: [
						...(earlier > 0 ? [partialRefundEvent(0, earlier, currency)] : []),
						partialRefundEvent(earlier > 0 ? 1 : 0, refundedMinor, currency),
					],
				}
			: {
					refundEvent: {
						eventTime: new Date(EVENT_TIME_MS + 86_400_000).toISOString(),
						refundDetails: { total: money(refundedMinor, currency), tax: money(0, currency) },
						refundReason: 'OTHER',
					},
				};
		const state = refundedTotalMinor < amountMinor ? 'PARTIALLY_REFUNDED' : 'REFUNDED';
		return completed(
			{
				voidedPurchaseNotification: {
					purchaseToken,
					orderId: transactionId,
					productType: 2,
					refundType: partial ? 2 : 1,
				},
			},
			eventId,
			{ order: order(transactionId, amountMinor, currency, history, state) },
		);
	},
	packageName: PACKAGE_NAME,
	tokenOf,
	money,
	/** purchases.subscriptionsv2.get of a renewed subscription (its second order, `….1`). */
	subscriptionPurchase: {
		kind: 'androidpublisher#subscriptionPurchaseV2',
		regionCode: 'DE',
		startTime: new Date(EVENT_TIME_MS).toISOString(),
		subscriptionState: 'SUBSCRIPTION_STATE_ACTIVE',
		latestOrderId: 'GPA.3300-0000-0000-00001..1',
		lineItems: [
			{
				productId: 'com.example.affiliate.monthly',
				expiryTime: new Date(EVENT_TIME_MS + 60 * 86_400_000).toISOString(),
				latestSuccessfulOrderId: 'GPA.3300-0000-0000-00001..1',
			},
		],
		acknowledgementState: 'ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED',
		externalAccountIdentifiers: { obfuscatedExternalAccountId: 'user_2002' },
	},
};
