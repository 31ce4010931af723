// @ts-check
'use strict';
/**
 * The sample events of Paddle: `transaction.completed` / `adjustment.updated` (an approved refund), in the shape the provider sends them: read by the unit, engine and
 * end-to-end tests (not by the node).
 */
/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: { purchase: 'transaction.completed', refund: 'adjustment.updated' },
	otherEvent: { event_id: 'evt_1', event_type: 'customer.created', data: { id: 'ctm_1' } },
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, currency, partial, refundedMinor, eventId } =
			fields;
		const { refundKey } = fields;
		return kind === 'purchase'
			? {
					event_id: eventId,
					event_type: 'transaction.completed',
					occurred_at: '2026-11-24T00:00:00.000Z',
					notification_id: `ntf_${eventId}`,
					data: {
						id: transactionId,
						status: 'completed',
						currency_code: currency,
						custom_data: { user_id: userId },
						items: [],
						details: {
							totals: { total: String(amountMinor), currency_code: currency },
							line_items: [],
						},
					},
				}
			: {
					event_id: eventId,
					event_type: 'adjustment.updated',
					occurred_at: '2026-11-24T00:00:00.000Z',
					notification_id: `ntf_${eventId}`,
					data: {
						id: `adj_${refundKey}`,
						action: 'refund',
						type: partial ? 'partial' : 'full',
						status: 'approved',
						transaction_id: transactionId,
						currency_code: currency,
						items: [
							{
								id: `adjitm_${refundKey}`,
								item_id: `txnitm_${transactionId}`,
								type: partial ? 'partial' : 'full',
								amount: String(refundedMinor),
							},
						],
						totals: { total: String(refundedMinor), currency_code: currency },
					},
				};
	},
	// An adjustment Paddle creates: chargeback_warning (opened), chargeback_reverse (won) or
	// chargeback (lost), approved.
	disputeEvent(outcome, { transactionId, amountMinor, currency, eventId }) {
		const action = { opened: 'chargeback_warning', won: 'chargeback_reverse', lost: 'chargeback' };
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
	},
};
