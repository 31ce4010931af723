/**
 * Chargebacks (nodes/PaymentWebhookTrigger/events.ts and the providers' dispute events): a dispute
 * the brand lost is a full refund item, `refundReason` chargeback, on the purchase's transaction
 * ID; a dispute opened or won, and a Paddle chargeback not yet approved, are kind `other`.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	disputeEvent,
	DISPUTING_PROVIDERS,
	sampleEvent,
} from '../../support/payment/paymentSignatures';
import { scenario } from '../../support/scenarios';
import { eventTypeOf } from '../../nodes/PaymentWebhookTrigger/events';
import { eventsParameterOf } from '../../nodes/PaymentWebhookTrigger/provider';
import { providerOf, type Provider } from '../../nodes/PaymentWebhookTrigger/providers';
import { itemOf as paymentItemOf, SIGNED_AT } from '../../support/fakes/paymentItem';

const TRANSACTION_ID = 'txn_disputed_1';

/** A dispute's item, as delivered with no signed message ID. */
const itemOf = (provider: Provider, body: IDataObject) =>
	paymentItemOf(provider, body, { signedAt: SIGNED_AT, messageId: null });

const dispute = (provider: Provider, outcome: 'opened' | 'won' | 'lost') =>
	disputeEvent(provider, outcome, {
		transactionId: TRANSACTION_ID,
		amountMinor: 4900,
	}) as IDataObject;

describe(scenario('paymentWebhook.chargebacks'), () => {
	it('Stripe, Paddle, Airwallex, Dodo Payments and PayPal report disputes', () => {
		expect([...DISPUTING_PROVIDERS].sort()).toEqual([
			'airwallex',
			'dodo',
			'paddle',
			'paypal',
			'stripe',
		]);
	});

	describe.each(DISPUTING_PROVIDERS)('%s', (provider) => {
		it('a lost dispute is a full refund, refundReason chargeback, on the purchase’s transaction ID', () => {
			const purchase = itemOf(
				provider,
				sampleEvent(provider, 'purchase', { transactionId: TRANSACTION_ID }) as IDataObject,
			);
			expect(itemOf(provider, dispute(provider, 'lost'))).toMatchObject({
				kind: 'refund',
				refundType: 'full',
				refundReason: 'chargeback',
				transactionId: purchase.transactionId,
				amount: '49.00',
				amountMinor: 4900,
				currency: 'USD',
			});
		});

		it('a dispute opened or won reverses nothing: kind other, no refund fields', () => {
			for (const outcome of ['opened', 'won'] as const) {
				expect(itemOf(provider, dispute(provider, outcome))).toMatchObject({
					kind: 'other',
					refundType: null,
					refundReason: null,
				});
			}
		});

		it('a refund the brand made says refundReason refund', () => {
			const refund = sampleEvent(provider, 'refund', { transactionId: TRANSACTION_ID });
			expect(itemOf(provider, refund as IDataObject)).toMatchObject({
				kind: 'refund',
				refundReason: 'refund',
			});
		});

		it('the lost dispute’s event is among the Events selected by default', () => {
			const lost = eventTypeOf(provider, dispute(provider, 'lost'));
			expect(eventsParameterOf(providerOf(provider)).default).toContain(lost);
		});
	});

	it('Stripe: a dispute closed otherwise than lost (warning_closed) is no chargeback', () => {
		const closed = dispute('stripe', 'lost');
		const object = (closed.data as IDataObject).object as IDataObject;
		const warning = { ...closed, data: { object: { ...object, status: 'warning_closed' } } };
		expect(itemOf('stripe', warning)).toMatchObject({ kind: 'other', refundReason: null });
	});

	it('Paddle: a chargeback adjustment counts once approved, whatever its type says', () => {
		const lost = dispute('paddle', 'lost');
		const data = lost.data as IDataObject;
		const pending = { ...lost, data: { ...data, status: 'pending_approval' } };
		expect(itemOf('paddle', pending)).toMatchObject({ kind: 'other', refundReason: null });
		const partial = {
			...lost,
			event_type: 'adjustment.updated',
			data: { ...data, type: 'partial' },
		};
		expect(itemOf('paddle', partial)).toMatchObject({
			kind: 'refund',
			refundType: 'full',
			refundReason: 'chargeback',
		});
	});
});
