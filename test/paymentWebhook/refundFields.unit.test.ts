/**
 * What a refund item says so that partial refunds can be added up (issue 46): the provider's ID
 * for the refund, the refunded total so far and what the purchase paid, each null and named in
 * `missing` where the provider does not send it (nodes/PaymentWebhookTrigger/events.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	PROVIDERS,
	SIGNS_NO_TIMESTAMP,
	disputeEvent,
	sampleEvent,
} from '../../support/payment/paymentSignatures';
import type { Provider } from '../../nodes/PaymentWebhookTrigger/providers';
import { itemOf } from '../../support/fakes/paymentItem';
import { scenario } from '../../support/scenarios';

const TRANSACTION_ID = 'txn_refunds_1';
const REFUND_FIELDS = ['refundId', 'refundedTotalMinor', 'paidMinor'] as const;

/** A refund of 40.00 (partial) or 100.00 of a 100.00 USD purchase, its refund ID made of `refundKey`. */
const refundSample = (
	provider: Provider,
	{ partial = true, refundKey = 'first', eventId }: RefundSampleOptions = {},
) =>
	sampleEvent(provider, 'refund', {
		transactionId: TRANSACTION_ID,
		partial,
		refundKey,
		eventId: eventId ?? `evt_refund_${refundKey}`,
	}) as IDataObject;

interface RefundSampleOptions {
	partial?: boolean;
	refundKey?: string;
	eventId?: string;
}

/**
 * What each provider sends, as its docs and SDK types have it: the refund's own ID (made of the
 * sample's refund key; null where none is sent), and whether the refund event states the total
 * refunded so far and what the purchase paid.
 */
const SENDS: Record<
	Provider,
	{ refundId: ((key: string) => string) | null; refundedTotal: boolean; paid: boolean }
> = {
	// charge.refunded: amount_refunded and amount_captured; the charge names no refund.
	stripe: { refundId: null, refundedTotal: true, paid: true },
	// The adjustment's adj_… ID; its totals are its own only.
	paddle: { refundId: (key) => `adj_${key}`, refundedTotal: false, paid: false },
	// The order: refunded_amount and total; no refund ID.
	lemonSqueezy: { refundId: null, refundedTotal: true, paid: true },
	// The order: refunded_amount (+ refunded_tax_amount) and total_amount; no refund ID.
	polar: { refundId: null, refundedTotal: true, paid: true },
	standardWebhooks: { refundId: null, refundedTotal: true, paid: true },
	// The refund's ref_… ID and its transaction's amount_paid; refund_amount is this refund's.
	creem: { refundId: (key) => `ref_${key}`, refundedTotal: false, paid: true },
	// The refund's rfd_… ID; nothing else.
	airwallex: { refundId: (key) => `rfd_${key}`, refundedTotal: false, paid: false },
	// refund_id and amount.total; amount.refund is this refund's.
	wechatPay: { refundId: (key) => `50000000${key}`, refundedTotal: false, paid: true },
	// out_biz_no, refund_fee (the total so far) and total_amount.
	alipay: { refundId: (key) => `refund_${key}`, refundedTotal: true, paid: true },
	// No refund ID; the transaction's revocation (one per transaction) and price.
	appStore: { refundId: null, refundedTotal: true, paid: true },
	// The refund's refund_id; amount is this refund's, nothing of the payment.
	dodo: { refundId: (key) => `ref_${key}`, refundedTotal: false, paid: false },
	// No refund ID; orders.get's partial refund events (the total so far) and its total.
	googlePlay: { refundId: null, refundedTotal: true, paid: true },
	// The refund's own ID and seller_payable_breakdown.total_refunded_amount; not what was paid.
	paypal: { refundId: (key) => `RF-${key}`, refundedTotal: true, paid: false },
};

describe(scenario('paymentWebhook.refundFields'), () => {
	it('knows every provider', () => {
		expect(Object.keys(SENDS).sort()).toEqual([...PROVIDERS].sort());
	});

	describe.each(PROVIDERS as Provider[])('%s', (provider) => {
		const sends = SENDS[provider];
		const absent = REFUND_FIELDS.filter(
			(field) =>
				(field === 'refundId' && sends.refundId === null) ||
				(field === 'refundedTotalMinor' && !sends.refundedTotal) ||
				(field === 'paidMinor' && !sends.paid),
		);
		const refundFieldsMissing = (missing: string[]) =>
			missing.filter((field) => (REFUND_FIELDS as readonly string[]).includes(field));

		it.each([
			['a partial refund', true, 4000],
			['a full refund', false, 10000],
		])(
			'%s: its ID, the refunded total and what was paid, else null and missing',
			(_t, partial, total) => {
				const item = itemOf(provider, refundSample(provider, { partial }));
				expect(item).toMatchObject({
					kind: 'refund',
					refundId: sends.refundId === null ? null : sends.refundId('first'),
					refundedTotalMinor: sends.refundedTotal ? total : null,
					paidMinor: sends.paid ? 10000 : null,
				});
				expect(refundFieldsMissing(item.missing)).toEqual(absent);
			},
		);

		it('a redelivery, or another event of the same refund, carries the same refundId', () => {
			const first = itemOf(provider, refundSample(provider));
			const again = itemOf(provider, refundSample(provider), {
				signedAt: SIGNS_NO_TIMESTAMP.includes(provider) ? null : 1_764_003_600,
				messageId: 'msg_redelivery',
			});
			const otherEvent = itemOf(provider, refundSample(provider, { eventId: 'evt_update_1' }));
			expect(again.refundId).toBe(first.refundId);
			expect(otherEvent.refundId).toBe(first.refundId);
			expect(first.refundId).toBe(sends.refundId === null ? null : sends.refundId('first'));
		});

		it('the next refund of the same purchase has another refundId, where one is sent', () => {
			const first = itemOf(provider, refundSample(provider));
			const second = itemOf(provider, refundSample(provider, { refundKey: 'second' }));
			expect(second.transactionId).toBe(first.transactionId);
			if (sends.refundId === null) expect(second.refundId).toBeNull();
			else expect(second.refundId).not.toBe(first.refundId);
		});

		it('a purchase has none of the three, and names none missing', () => {
			const purchase = sampleEvent(provider, 'purchase', { transactionId: TRANSACTION_ID });
			const item = itemOf(provider, purchase as IDataObject);
			expect(item.kind).toBe('purchase');
			for (const field of REFUND_FIELDS) expect(item).not.toHaveProperty(field);
			expect(refundFieldsMissing(item.missing)).toEqual([]);
		});
	});

	// Each case: the provider, the refund event as sent, and what the item holds.
	it.each<[string, Provider, IDataObject, IDataObject]>([
		[
			'Stripe refund.created names the refund; the total and what was paid only with the charge expanded',
			'stripe',
			stripeEvent('refund.created', {
				id: 're_3',
				amount: 500,
				currency: 'usd',
				payment_intent: 'pi_1',
				charge: { id: 'ch_1', amount: 900, amount_captured: 900, amount_refunded: 700 },
				status: 'succeeded',
			}),
			{ refundId: 're_3', amountMinor: 500, refundedTotalMinor: 700, paidMinor: 900 },
		],
		[
			'Stripe refund.created with the charge as an ID',
			'stripe',
			stripeEvent('refund.created', {
				id: 're_4',
				amount: 500,
				currency: 'usd',
				payment_intent: 'pi_1',
				charge: 'ch_1',
				status: 'succeeded',
			}),
			{ refundId: 're_4', refundedTotalMinor: null, paidMinor: null },
		],
		[
			'Stripe charge.refunded: what the charge captured, not what it authorized',
			'stripe',
			stripeEvent('charge.refunded', {
				id: 'ch_2',
				amount: 1000,
				amount_captured: 800,
				amount_refunded: 300,
				currency: 'usd',
				payment_intent: 'pi_2',
				refunded: false,
			}),
			{ refundId: null, refundedTotalMinor: 300, paidMinor: 800 },
		],
		[
			'Polar: before tax, as Polar decides an order refunded (refunded_amount against net_amount)',
			'polar',
			polarRefund({
				refunded_amount: 1000,
				refunded_tax_amount: 200,
				net_amount: 2000,
				tax_amount: 400,
				total_amount: 2400,
			}),
			{ amountMinor: 1000, refundedTotalMinor: 1000, paidMinor: 2000 },
		],
		[
			'Polar with a customer balance applied: paid is net_amount plus applied_balance_amount',
			'polar',
			polarRefund({
				refunded_amount: 1500,
				net_amount: 2000,
				applied_balance_amount: -500,
				total_amount: 2000,
			}),
			{ refundedTotalMinor: 1500, paidMinor: 1500 },
		],
		[
			'Polar without net_amount: the refunded total with its tax, against total_amount',
			'polar',
			polarRefund({
				refunded_amount: 1000,
				refunded_tax_amount: 200,
				net_amount: undefined,
				total_amount: 2400,
			}),
			{ amountMinor: 1000, refundedTotalMinor: 1200, paidMinor: 2400 },
		],
		[
			'Polar without net_amount: no refunded total without refunded_tax_amount',
			'polar',
			polarRefund({
				refunded_amount: 1000,
				refunded_tax_amount: undefined,
				net_amount: undefined,
				total_amount: 2400,
			}),
			{ refundedTotalMinor: null, paidMinor: 2400 },
		],
		[
			'Lemon Squeezy: refunded_amount and total, tax included in both',
			'lemonSqueezy',
			{
				meta: { event_name: 'order_refunded' },
				data: {
					type: 'orders',
					id: '42',
					attributes: {
						currency: 'USD',
						tax: 200,
						total: 1199,
						refunded_amount: 100,
						status: 'partial_refund',
						refunded: false,
					},
				},
			},
			{ refundId: null, refundedTotalMinor: 100, paidMinor: 1199 },
		],
	])('%s', (_title, provider, body, expected) => {
		expect(itemOf(provider, body)).toMatchObject(expected);
	});

	it('App Store: a prorated refund is the transaction’s revocation, the refunded total of it', () => {
		const body = sampleEvent('appStore', 'refund', {
			transactionId: TRANSACTION_ID,
			partial: true,
			amountMinor: 499,
			currency: 'EUR',
		}) as IDataObject;
		const item = itemOf('appStore', body);
		expect(item).toMatchObject({
			refundType: 'partial',
			refundId: null,
			amountMinor: 199,
			refundedTotalMinor: 199,
			paidMinor: 499,
			currency: 'EUR',
		});
		expect(item.missing).toContain('refundId');
	});

	it.each(['stripe', 'paddle', 'airwallex', 'dodo'] as const)(
		'%s: a lost dispute is named by its own ID, the same on every delivery',
		(provider) => {
			const lost = (eventId: string) =>
				itemOf(
					provider,
					disputeEvent(provider, 'lost', {
						transactionId: TRANSACTION_ID,
						eventId,
					}) as IDataObject,
				);
			const item = lost('evt_lost_1');
			expect(item).toMatchObject({ refundReason: 'chargeback', refundedTotalMinor: null });
			expect(item.refundId).toEqual(expect.stringContaining(TRANSACTION_ID));
			expect(lost('evt_lost_2').refundId).toBe(item.refundId);
		},
	);
});

function stripeEvent(type: string, object: IDataObject): IDataObject {
	return { id: 'evt_1', object: 'event', type, data: { object } };
}

/** Polar's order.refunded of an order, its amounts changed by `amounts`. */
/**
 * Paid and refunded on one basis: a purchase refunded in two halves, as the provider sends them,
 * whose halves add up to what the purchase item says it paid, and not a cent more.
 */
describe('paid and refunded on one basis', () => {
	it('Paddle: a transaction paid partly with a credit is what its grand_total says', () => {
		const purchase = sampleEvent('paddle', 'purchase', {
			transactionId: 'txn_paddle_credit',
		}) as IDataObject;
		const data = purchase.data as IDataObject;
		// Paddle's totals: total before credits, credit applied, grand_total what the customer paid.
		const totals = {
			subtotal: '5000',
			tax: '0',
			total: '5000',
			credit: '1000',
			balance: '0',
			grand_total: '4000',
			currency_code: 'USD',
		};
		const paid = itemOf('paddle', {
			...purchase,
			data: { ...data, details: { totals, line_items: [] } },
		});
		const halves = [1, 2].map((half) =>
			itemOf(
				'paddle',
				sampleEvent('paddle', 'refund', {
					transactionId: 'txn_paddle_credit',
					refundedMinor: 2000,
					refundKey: `h${half}`,
				}) as IDataObject,
			),
		);
		expect(paid.amountMinor).toBe(4000);
		expect(halves.map((item) => item.amountMinor)).toEqual([2000, 2000]);
		expect(halves[0].amountMinor! + halves[1].amountMinor!).toBe(paid.amountMinor);
	});

	it('Airwallex: an intent captured in part is what captured_amount says', () => {
		const purchase = sampleEvent('airwallex', 'purchase', {
			transactionId: 'int_partly_captured',
			amountMinor: 5000,
		}) as IDataObject;
		const data = purchase.data as IDataObject;
		const intent = { ...(data.object as IDataObject), amount: 50, captured_amount: 30 };
		const paid = itemOf('airwallex', { ...purchase, data: { ...data, object: intent } });
		expect(paid.amountMinor).toBe(3000);
		const uncaptured = { ...(data.object as IDataObject), amount: 50, captured_amount: 0 };
		expect(
			itemOf('airwallex', { ...purchase, data: { ...data, object: uncaptured } }).amountMinor,
		).toBe(5000);
		const halves = [1, 2].map((half) =>
			itemOf(
				'airwallex',
				sampleEvent('airwallex', 'refund', {
					transactionId: 'int_partly_captured',
					refundedMinor: 1500,
					refundKey: `h${half}`,
				}) as IDataObject,
			),
		);
		expect(halves[0].amountMinor! + halves[1].amountMinor!).toBe(paid.amountMinor);
	});

	it('Polar with a balance: the second half reaches what was paid, the first does not', () => {
		const order = { net_amount: 2000, applied_balance_amount: -500, total_amount: 2000 };
		const first = itemOf('polar', polarRefund({ ...order, refunded_amount: 750 }));
		const second = itemOf('polar', polarRefund({ ...order, refunded_amount: 1500 }));
		expect([first.refundedTotalMinor, first.paidMinor]).toEqual([750, 1500]);
		expect(first.refundedTotalMinor! < first.paidMinor!).toBe(true);
		expect(second.refundedTotalMinor).toBe(second.paidMinor);
	});
});

function polarRefund(amounts: IDataObject): IDataObject {
	const body = sampleEvent('polar', 'refund', {
		transactionId: TRANSACTION_ID,
		partial: true,
	}) as IDataObject;
	return { ...body, data: { ...(body.data as IDataObject), ...amounts } };
}
