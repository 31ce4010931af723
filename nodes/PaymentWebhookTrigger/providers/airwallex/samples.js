// @ts-check
'use strict';
/**
 * The sample events of Airwallex: `payment_intent.succeeded` / `refund.settled`, and a dispute
 * opened (`payment_dispute.requires_response`), won or lost, in the shape Airwallex sends them
 * (the envelope's `name` and `id`, the object of the Retrieve API in `data.object`, amounts in
 * major units): read by the unit, engine and end-to-end tests (not by the node).
 */

/** Currencies whose smallest unit is the unit itself, or a thousandth, among those tests send. */
const DECIMALS = { JPY: 0, KRW: 0, KWD: 3 };

/** An amount in the smallest unit as Airwallex sends it: 1666 USD → 16.66. @param {number} minor @param {string} currency */
const majorUnits = (minor, currency) =>
	minor / 10 ** (DECIMALS[/** @type {keyof typeof DECIMALS} */ (currency)] ?? 2);

/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: { purchase: 'payment_intent.succeeded', refund: 'refund.settled' },
	refundSizeUnsaid: true,
	otherEvent: {
		id: 'evt_1',
		name: 'payment_intent.created',
		accountId: 'acct_affiliate_tracking_test',
		data: { object: { id: 'int_1', status: 'REQUIRES_PAYMENT_METHOD' } },
	},
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, currency, refundedMinor, eventId } = fields;
		const envelope = { id: eventId, accountId: 'acct_affiliate_tracking_test' };
		return kind === 'purchase'
			? {
					...envelope,
					name: 'payment_intent.succeeded',
					data: {
						object: {
							id: transactionId,
							request_id: `req_${transactionId}`,
							merchant_order_id: `order_${transactionId}`,
							amount: majorUnits(amountMinor, currency),
							currency,
							captured_amount: majorUnits(amountMinor, currency),
							status: 'SUCCEEDED',
							metadata: { user_id: userId },
							created_at: '2026-11-24T00:00:00+0000',
							updated_at: '2026-11-24T00:00:00+0000',
						},
					},
				}
			: {
					...envelope,
					name: 'refund.settled',
					data: {
						object: {
							id: `rfd_${fields.refundKey}`,
							request_id: `req_refund_${fields.refundKey}`,
							payment_intent_id: transactionId,
							amount: majorUnits(refundedMinor, currency),
							currency,
							reason: 'requested_by_customer',
							status: 'SETTLED',
							metadata: { user_id: userId },
							created_at: '2026-11-24T00:00:00+0000',
							updated_at: '2026-11-24T00:00:00+0000',
						},
					},
				};
	},
	// payment_dispute.requires_response when opened, then payment_dispute.won or .lost.
	disputeEvent(outcome, { transactionId, amountMinor, currency, eventId }) {
		const name = { opened: 'requires_response', won: 'won', lost: 'lost' }[outcome];
		return {
			id: eventId,
			name: `payment_dispute.${name}`,
			accountId: 'acct_affiliate_tracking_test',
			data: {
				object: {
					id: `dsp_${transactionId}`,
					payment_intent_id: transactionId,
					amount: majorUnits(amountMinor, currency),
					currency,
					status: name.toUpperCase(),
					stage: 'CHARGEBACK',
					reason: { type: 'FRAUD' },
				},
			},
		};
	},
};
