/**
 * What PayPal's events say (providers/paypal/readers.ts), on its samples
 * (providers/paypal/samples.js): the purchases (an Orders v2 capture, a subscription's sale), their
 * refunds on the same transaction ID with the running total, and the chargebacks (a capture
 * reversed, a dispute resolved in the buyer's favour). No refund states what was paid or whether
 * it is whole: paidMinor and refundType are null, and named missing.
 */
import type { IDataObject } from 'n8n-workflow';

import samples from '../../nodes/PaymentWebhookTrigger/providers/paypal/samples';
import { disputeEvent, sampleEvent } from '../../support/payment/paymentSignatures';
import { itemOf, patchedAt } from '../../support/fakes/paymentItem';
import { scenario } from '../../support/scenarios';

const { events } = samples;
const item = (body: unknown) => itemOf('paypal', body as IDataObject);

describe(scenario('paymentWebhook.paypal.events'), () => {
	it('a capture: its ID, the amount read exactly, custom_id as the user, no metadata', () => {
		const purchase = sampleEvent('paypal', 'purchase', {
			transactionId: '3C679366HH908993F',
			userId: 'user_42',
			amountMinor: 1666,
		});
		expect(item(purchase)).toMatchObject({
			eventType: 'PAYMENT.CAPTURE.COMPLETED',
			eventId: 'evt_purchase_3C679366HH908993F',
			kind: 'purchase',
			transactionId: '3C679366HH908993F',
			amount: '16.66',
			amountMinor: 1666,
			currency: 'USD',
			userId: 'user_42',
			metadata: null,
			missing: ['metadata'],
		});
	});

	it('a capture in yen or dinars: the currency’s own decimals', () => {
		for (const [currency, amountMinor, amount] of [
			['JPY', 2590, '2590'],
			['KWD', 12345, '12.345'],
		] as const) {
			const purchase = sampleEvent('paypal', 'purchase', {
				transactionId: 'T1',
				amountMinor,
				currency,
			});
			expect(item(purchase)).toMatchObject({ amountMinor, amount, currency });
		}
	});

	it('a capture still PENDING is no purchase yet', () => {
		expect(item(events.capturePending)).toMatchObject({ kind: 'other', refundReason: null });
	});

	it('a capture refunded: its refund ID, the capture from the up link, the running total', () => {
		const refund = sampleEvent('paypal', 'refund', {
			transactionId: '3C679366HH908993F',
			amountMinor: 2590,
			refundedMinor: 1295,
			refundedTotalMinor: 2590,
			refundKey: 'second',
		});
		const refunded = item(refund);
		expect(refunded).toMatchObject({
			eventType: 'PAYMENT.CAPTURE.REFUNDED',
			kind: 'refund',
			refundType: null,
			refundReason: 'refund',
			refundId: 'RF-second',
			transactionId: '3C679366HH908993F',
			amountMinor: 1295,
			refundedTotalMinor: 2590,
			paidMinor: null,
			userId: null,
		});
		expect(refunded.missing).toEqual(['refundType', 'paidMinor', 'userId', 'metadata']);
	});

	it('a purchase and its refund share the transaction ID, whatever characters it holds', () => {
		for (const transactionId of ['examples_paypal_1', '5O190127TN364715T', 'a-b.c~d']) {
			const purchase = item(sampleEvent('paypal', 'purchase', { transactionId }));
			const refund = item(sampleEvent('paypal', 'refund', { transactionId }));
			expect([purchase.transactionId, refund.transactionId]).toEqual([
				transactionId,
				transactionId,
			]);
		}
	});

	it('a refund without an up link to a capture names no transaction; a pending one counts not yet', () => {
		const refund = sampleEvent('paypal', 'refund', { transactionId: 'C1' }) as IDataObject;
		const resource = refund.resource as IDataObject;
		const unlinked = patchedAt(refund, ['resource'], {
			links: [{ rel: 'up', href: 'https://api.paypal.com/v2/checkout/orders/O1' }],
		});
		expect(item(unlinked).transactionId).toBeNull();
		expect(item(patchedAt(refund, ['resource'], { status: 'PENDING' })).kind).toBe('other');
		expect(item(patchedAt(refund, ['resource'], { status: 'FAILED' }))).toMatchObject({
			kind: 'refundFailed',
			refundId: resource.id,
		});
	});

	// Each of PayPal's other events, as its samples send it, and what its item says.
	it.each<[string, unknown, IDataObject]>([
		[
			'a subscription’s sale: the sale ID, amount.total, the subscription’s custom_id (sent as custom)',
			events.saleCompleted,
			{
				kind: 'purchase',
				transactionId: '7WT2824826029771W',
				amountMinor: 999,
				currency: 'EUR',
				userId: 'user_2002',
			},
		],
		[
			'a sale refunded: the sale ID, the amount sent negative read as what went back, the total',
			events.saleRefunded,
			{
				kind: 'refund',
				refundId: '6YX43824R4443062K',
				transactionId: '7WT2824826029771W',
				amountMinor: 400,
				currency: 'EUR',
				refundedTotalMinor: 400,
				paidMinor: null,
			},
		],
		[
			'a capture reversed: a chargeback, a full reversal of the capture',
			events.captureReversed,
			{
				kind: 'refund',
				refundType: 'full',
				refundReason: 'chargeback',
				transactionId: '3C679366HH908993F',
				amountMinor: 2590,
				currency: 'USD',
			},
		],
	])('%s', (_name, event, expected) => {
		expect(item(event)).toMatchObject(expected);
	});

	it('a dispute resolved for the buyer is a chargeback on the disputed capture; for the seller, or opened, nothing', () => {
		const fields = { transactionId: 'CAP9', amountMinor: 4900 };
		expect(item(disputeEvent('paypal', 'lost', fields))).toMatchObject({
			eventType: 'CUSTOMER.DISPUTE.RESOLVED',
			kind: 'refund',
			refundType: 'full',
			refundReason: 'chargeback',
			refundId: 'PP-D-CAP9',
			transactionId: 'CAP9',
			amountMinor: 4900,
		});
		for (const outcome of ['won', 'opened'] as const)
			expect(item(disputeEvent('paypal', outcome, fields))).toMatchObject({
				kind: 'other',
				refundReason: null,
			});
	});

	it('an event that is neither, or a body without its resource, is other', () => {
		expect(item(samples.otherEvent)).toMatchObject({ kind: 'other', transactionId: null });
		const bare = { id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED' };
		expect(item(bare)).toMatchObject({ kind: 'other', eventId: 'WH-1', transactionId: null });
	});
});
