/**
 * Only money that went back counts (issue 51): a refund still pending is kind other, one that
 * failed or was canceled is kind refundFailed with its own fields, so a ledger takes it out of its
 * sum (nodes/PaymentWebhookTrigger/events.ts; Stripe's and Creem's readers).
 */
import type { IDataObject } from 'n8n-workflow';

import { itemOf, patchedAt } from '../../support/fakes/paymentItem';
import { sampleEvent } from '../../support/payment/paymentSignatures';
import { scenario } from '../../support/scenarios';

describe(scenario('paymentWebhook.refundStatus'), () => {
	const TRANSACTION_ID = 'pi_status_1';
	/** A Stripe refund of 40.00 of a 100.00 USD PaymentIntent, as `type` with `status`. */
	const stripeRefund = (
		refundEventType: 'refund.created' | 'refund.updated' | 'refund.failed',
		refundStatus: string,
	) =>
		itemOf(
			'stripe',
			sampleEvent('stripe', 'refund', {
				transactionId: TRANSACTION_ID,
				partial: true,
				perRefund: true,
				refundKey: 'status_1',
				refundEventType,
				refundStatus,
			}) as IDataObject,
		);
	/** What a failed refund item holds: the refund's own fields, no type or reason. */
	const failedItem = (eventType: string) => ({
		eventType,
		kind: 'refundFailed',
		refundType: null,
		refundReason: null,
		refundId: 're_status_1',
		transactionId: TRANSACTION_ID,
		amount: '40.00',
		amountMinor: 4000,
		refundedTotalMinor: null,
		paidMinor: null,
		currency: 'USD',
		userId: 'user_1001',
		missing: ['refundedTotalMinor', 'paidMinor'],
	});

	it.each([
		['pending', 'pending'],
		['requires_action', 'requires_action'],
	])('Stripe refund.created %s: kind other, not money returned yet', (_t, status) => {
		expect(stripeRefund('refund.created', status)).toMatchObject({
			eventType: 'refund.created',
			kind: 'other',
			refundType: null,
			refundReason: null,
			transactionId: TRANSACTION_ID,
			amountMinor: 4000,
			missing: [],
		});
		expect(stripeRefund('refund.created', status)).not.toHaveProperty('refundId');
	});

	it('Stripe refund.updated succeeded: a refund, with its re_… ID', () => {
		expect(stripeRefund('refund.updated', 'succeeded')).toMatchObject({
			eventType: 'refund.updated',
			kind: 'refund',
			refundType: null,
			refundReason: 'refund',
			refundId: 're_status_1',
			transactionId: TRANSACTION_ID,
			amountMinor: 4000,
			amount: '40.00',
			missing: ['refundType', 'refundedTotalMinor', 'paidMinor'],
		});
	});

	it.each(['failed', 'canceled'])(
		'Stripe refund.updated %s: refundFailed, with the refund’s own fields',
		(status) => {
			expect(stripeRefund('refund.updated', status)).toEqual(
				expect.objectContaining(failedItem('refund.updated')),
			);
		},
	);

	it('Stripe refund.failed: refundFailed, whatever the status it shows', () => {
		expect(stripeRefund('refund.failed', 'failed')).toMatchObject(failedItem('refund.failed'));
		expect(stripeRefund('refund.failed', 'succeeded')).toMatchObject(failedItem('refund.failed'));
	});

	describe('Creem refund.created', () => {
		const creemRefund = (status: string) =>
			itemOf(
				'creem',
				patchedAt(
					sampleEvent('creem', 'refund', {
						transactionId: 'ord_status_1',
						partial: true,
						refundKey: 'status_1',
					}) as IDataObject,
					['object'],
					{ status },
				),
			);

		it('pending: kind other', () => {
			expect(creemRefund('pending')).toMatchObject({
				kind: 'other',
				refundType: null,
				refundReason: null,
				transactionId: 'ord_status_1',
				amountMinor: 4000,
			});
		});

		it('succeeded: a partial refund', () => {
			expect(creemRefund('succeeded')).toMatchObject({
				kind: 'refund',
				refundType: 'partial',
				refundReason: 'refund',
				refundId: 'ref_status_1',
				transactionId: 'ord_status_1',
				amountMinor: 4000,
				paidMinor: 10000,
				// Creem signs no timestamp and states no refunded total.
				missing: ['signedAt', 'refundedTotalMinor'],
			});
		});

		it('failed: refundFailed, with the refund’s own fields', () => {
			expect(creemRefund('failed')).toMatchObject({
				kind: 'refundFailed',
				refundType: null,
				refundReason: null,
				refundId: 'ref_status_1',
				transactionId: 'ord_status_1',
				amountMinor: 4000,
				paidMinor: 10000,
				// Creem signs no timestamp and states no refunded total.
				missing: ['signedAt', 'refundedTotalMinor'],
			});
		});
	});
});
