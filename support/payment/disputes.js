// @ts-check
'use strict';
/**
 * Dispute events as Stripe, Paddle Billing and Airwallex send them, for the tests of chargebacks:
 * a dispute opened, won by the brand, or lost (a chargeback: the card's owner keeps the money).
 * Stripe: `charge.dispute.created` / `charge.dispute.closed` with `status` won or lost; Paddle:
 * an adjustment with action `chargeback_warning`, `chargeback_reverse` or `chargeback`; Airwallex:
 * `payment_dispute.requires_response` / `.won` / `.lost`.
 */

/** @typedef {'stripe' | 'paddle' | 'airwallex'} DisputingProvider */
/** @typedef {'opened' | 'won' | 'lost'} DisputeOutcome */
/**
 * @typedef {{ transactionId: string, amountMinor?: number, currency?: string, eventId?: string }} DisputeFields
 * `transactionId`: the ID the purchase was tracked with (Stripe's PaymentIntent, Paddle's `txn_…`,
 * Airwallex's PaymentIntent)
 */

/** The providers whose lost disputes reverse commissions. @type {DisputingProvider[]} */
const DISPUTING_PROVIDERS = ['stripe', 'paddle', 'airwallex'];

/** @type {DisputeOutcome[]} */
const DISPUTE_OUTCOMES = ['opened', 'won', 'lost'];

/**
 * A dispute event of `provider` with `outcome`, in the shape the provider sends.
 * @param {DisputingProvider} provider @param {DisputeOutcome} outcome @param {DisputeFields} fields
 * @returns {Record<string, unknown>}
 */
function disputeEvent(provider, outcome, fields) {
	const { transactionId, amountMinor = 10000, currency = 'USD' } = fields;
	const eventId = fields.eventId ?? `evt_dispute_${outcome}_${transactionId}`;
	switch (provider) {
		case 'stripe':
			return {
				id: eventId,
				object: 'event',
				api_version: '2025-03-31.basil',
				created: 1_764_000_000,
				type: outcome === 'opened' ? 'charge.dispute.created' : 'charge.dispute.closed',
				livemode: false,
				data: {
					object: {
						id: `dp_${transactionId}`,
						object: 'dispute',
						amount: amountMinor,
						currency: currency.toLowerCase(),
						charge: `ch_${transactionId}`,
						payment_intent: transactionId,
						reason: 'fraudulent',
						status: outcome === 'opened' ? 'needs_response' : outcome,
						metadata: {},
					},
				},
			};
		case 'paddle': {
			const action = {
				opened: 'chargeback_warning',
				won: 'chargeback_reverse',
				lost: 'chargeback',
			};
			return {
				event_id: eventId,
				event_type: 'adjustment.created',
				occurred_at: '2026-11-24T00:00:00.000Z',
				notification_id: `ntf_${eventId}`,
				data: {
					id: `adj_${outcome}_${transactionId}`,
					action: action[outcome],
					type: 'full',
					status: 'approved',
					transaction_id: transactionId,
					currency_code: currency,
					reason: 'chargeback',
					items: [],
					totals: { total: String(amountMinor), currency_code: currency },
				},
			};
		}
		case 'airwallex': {
			const name = {
				opened: 'payment_dispute.requires_response',
				won: 'payment_dispute.won',
				lost: 'payment_dispute.lost',
			};
			const status = { opened: 'REQUIRES_RESPONSE', won: 'WON', lost: 'LOST' };
			return {
				id: eventId,
				name: name[outcome],
				accountId: 'acct_affiliate_tracking_test',
				data: {
					object: {
						id: `dsp_${transactionId}`,
						payment_intent_id: transactionId,
						amount: amountMinor / 100,
						currency,
						status: status[outcome],
						stage: 'CHARGEBACK',
						reason: { type: 'FRAUD' },
					},
				},
			};
		}
		default:
			throw new Error(`No disputes for ${String(provider)}`);
	}
}

module.exports = { DISPUTE_OUTCOMES, DISPUTING_PROVIDERS, disputeEvent };
