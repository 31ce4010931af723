/** What an accepted payment delivery becomes (nodes/PaymentWebhookTrigger/events.ts). */
import type { IDataObject } from 'n8n-workflow';

import {
	PLAIN_JSON_PROVIDERS,
	SAMPLES,
	sampleEvent,
	SIGNS_NO_TIMESTAMP,
} from '../../support/payment/paymentSignatures';
import {
	DEFAULT_USER_ID_METADATA_KEY,
	eventTypeOf,
	paymentEventItem,
} from '../../nodes/PaymentWebhookTrigger/events';
import type { Provider } from '../../nodes/PaymentWebhookTrigger/providers';
import { itemOf, MESSAGE_ID, patchedAt } from '../../support/fakes/paymentItem';
import { EXAMPLES, readExample } from '../../support/n8n/n8nDemoData';
import { scenario } from '../../support/scenarios';

/** SIGNED_AT (support/fakes/paymentItem.ts) as the item shows it. */
const SIGNED_AT_ISO = '2025-11-24T16:00:00.000Z';

const sample = (
	provider: Provider,
	kind: 'purchase' | 'refund',
	fields: { partial?: boolean; amountMinor?: number; currency?: string } = {},
) => sampleEvent(provider, kind, { transactionId: 'txn_shared_1', ...fields }) as IDataObject;

/** The item's fields read from the event itself, in the item's order (an unknown event lacks them all). */
const EVENT_FIELDS = ['transactionId', 'amount', 'amountMinor', 'currency', 'userId', 'metadata'];

/** What the provider's samples say of the item: their event types and where the eventId is from. */
function expectedOf(provider: Provider) {
	const { eventTypes, eventIdFrom } = SAMPLES[provider];
	return {
		...eventTypes,
		eventId: (kind: string): string | null =>
			eventIdFrom === 'body'
				? `evt_${kind}_txn_shared_1`
				: eventIdFrom === 'message'
					? MESSAGE_ID
					: null,
	};
}

describe(scenario('paymentWebhook.items'), () => {
	describe.each(PLAIN_JSON_PROVIDERS)('%s', (provider) => {
		const expected = expectedOf(provider);
		const unsigned = [
			...(expected.eventId('purchase') === null ? ['eventId'] : []),
			...(SIGNS_NO_TIMESTAMP.includes(provider) ? ['signedAt'] : []),
		];

		it('a purchase: the transaction ID, amount, currency, user ID and metadata', () => {
			const body = sample(provider, 'purchase');
			const item = itemOf(provider, body);
			// In the item's order: Object.keys checks it.
			const expectedItem = {
				provider,
				eventType: expected.purchase,
				eventId: expected.eventId('purchase'),
				signedAt: SIGNS_NO_TIMESTAMP.includes(provider) ? null : SIGNED_AT_ISO,
				kind: 'purchase',
				refundType: null,
				refundReason: null,
				transactionId: 'txn_shared_1',
				amount: '100.00',
				amountMinor: 10000,
				currency: 'USD',
				userId: 'user_1001',
				metadata: { user_id: 'user_1001' },
				missing: unsigned,
				event: body,
			};
			expect(item).toEqual(expectedItem);
			expect(Object.keys(item)).toEqual(Object.keys(expectedItem));
		});

		it('a full refund shares the purchase’s transaction ID', () => {
			const purchase = itemOf(provider, sample(provider, 'purchase'));
			const refund = itemOf(provider, sample(provider, 'refund'));
			expect(refund).toMatchObject({
				eventType: expected.refund,
				eventId: expected.eventId('refund'),
				kind: 'refund',
				refundType: SAMPLES[provider].refundSizeUnsaid ? null : 'full',
				refundReason: 'refund',
				transactionId: purchase.transactionId,
				amount: '100.00',
				amountMinor: 10000,
				currency: 'USD',
			});
		});

		it('a partial refund: refundType partial and the amount refunded', () => {
			const refund = itemOf(provider, sample(provider, 'refund', { partial: true }));
			expect(refund).toMatchObject({
				kind: 'refund',
				refundType: SAMPLES[provider].refundSizeUnsaid ? null : 'partial',
				transactionId: 'txn_shared_1',
				amount: '40.00',
				amountMinor: 4000,
			});
		});

		it('zero-decimal and three-decimal currencies', () => {
			expect(
				itemOf(provider, sample(provider, 'purchase', { amountMinor: 1000, currency: 'JPY' })),
			).toMatchObject({ amount: '1000', amountMinor: 1000, currency: 'JPY' });
			expect(
				itemOf(provider, sample(provider, 'purchase', { amountMinor: 12345, currency: 'KWD' })),
			).toMatchObject({ amount: '12.345', currency: 'KWD' });
		});

		it('reads the user ID under another metadata key', () => {
			const body = sample(provider, 'purchase');
			expect(itemOf(provider, body, { userIdMetadataKey: 'customer_ref' })).toMatchObject({
				userId: null,
				missing: [...unsigned, 'userId'],
			});
		});

		it('lists every field of an event it does not know as missing', () => {
			const body = SAMPLES[provider].otherEvent as IDataObject;
			const item = itemOf(provider, body);
			expect(item.kind).toBe('other');
			expect(item.missing).toEqual([...unsigned, ...EVENT_FIELDS]);
			expect(item.event).toBe(body);
		});
	});

	describe('Stripe', () => {
		const event = (type: string, object: IDataObject): IDataObject => ({
			id: 'evt_1',
			object: 'event',
			api_version: '2025-03-31.basil',
			type,
			data: { object },
		});

		// Each case: the event's type and object, and what the item must hold.
		it.each<[string, string, IDataObject, IDataObject]>([
			[
				'checkout.session.completed: the PaymentIntent, metadata before client_reference_id',
				'checkout.session.completed',
				{
					id: 'cs_1',
					object: 'checkout.session',
					payment_intent: 'pi_checkout',
					payment_status: 'paid',
					amount_total: 2599,
					currency: 'eur',
					client_reference_id: 'user_ref_7',
					metadata: { user_id: 'user_meta_8', plan: 'pro' },
				},
				{
					kind: 'purchase',
					transactionId: 'pi_checkout',
					amount: '25.99',
					currency: 'EUR',
					userId: 'user_meta_8',
					metadata: { user_id: 'user_meta_8', plan: 'pro' },
					missing: [],
				},
			],
			[
				'checkout.session.completed: client_reference_id when the metadata holds no user ID',
				'checkout.session.completed',
				{
					id: 'cs_2',
					object: 'checkout.session',
					payment_intent: 'pi_link',
					payment_status: 'paid',
					amount_total: 900,
					currency: 'usd',
					client_reference_id: 'user_ref_7',
					metadata: { plan: 'pro' },
				},
				{ kind: 'purchase', transactionId: 'pi_link', userId: 'user_ref_7', missing: [] },
			],
			[
				'checkout.session.completed not yet paid (a delayed payment method) is no purchase',
				'checkout.session.completed',
				{
					payment_intent: 'pi_later',
					payment_status: 'unpaid',
					amount_total: 100,
					currency: 'usd',
				},
				{ kind: 'other', transactionId: 'pi_later' },
			],
			[
				'invoice.paid since API version basil: the PaymentIntent through invoice.payments',
				'invoice.paid',
				{
					id: 'in_1',
					object: 'invoice',
					amount_paid: 4900,
					currency: 'usd',
					metadata: {},
					parent: { subscription_details: { metadata: { user_id: 'user_sub_3' } } },
					payments: {
						object: 'list',
						data: [
							{
								object: 'invoice_payment',
								status: 'canceled',
								payment: { type: 'payment_intent', payment_intent: 'pi_failed_first' },
							},
							{
								object: 'invoice_payment',
								status: 'paid',
								payment: { type: 'payment_intent', payment_intent: 'pi_basil' },
							},
						],
					},
				},
				{
					kind: 'purchase',
					transactionId: 'pi_basil',
					amount: '49.00',
					userId: 'user_sub_3',
					metadata: {},
				},
			],
			[
				'invoice.paid of nothing (a trial): no transaction, said in missing',
				'invoice.paid',
				{ id: 'in_3', amount_paid: 0, currency: 'usd' },
				{
					kind: 'purchase',
					transactionId: null,
					amount: '0.00',
					missing: ['transactionId', 'userId', 'metadata'],
				},
			],
			[
				'a failed refund.created is no refund: kind refundFailed',
				'refund.created',
				{ amount: 500, currency: 'usd', payment_intent: 'pi_x', status: 'failed' },
				{ kind: 'refundFailed', refundType: null, refundReason: null, transactionId: 'pi_x' },
			],
			[
				'an event without a currency or metadata says so in missing',
				'payment_intent.succeeded',
				{ id: 'pi_bare', amount: 700 },
				{
					transactionId: 'pi_bare',
					amount: null,
					amountMinor: 700,
					currency: null,
					missing: ['amount', 'currency', 'userId', 'metadata'],
				},
			],
		])('%s', (_title, type, object, expected) => {
			expect(itemOf('stripe', event(type, object))).toMatchObject(expected);
		});

		it('invoice.paid before basil: invoice.payment_intent, as a string or expanded', () => {
			const legacy = (paymentIntent: string | IDataObject) =>
				event('invoice.paid', {
					id: 'in_2',
					amount_paid: 1000,
					currency: 'usd',
					payment_intent: paymentIntent,
					subscription_details: { metadata: { user_id: 'user_legacy' } },
				});
			expect(itemOf('stripe', legacy('pi_legacy'))).toMatchObject({
				transactionId: 'pi_legacy',
				userId: 'user_legacy',
			});
			expect(
				itemOf('stripe', legacy({ id: 'pi_expanded', object: 'payment_intent' })),
			).toMatchObject({ transactionId: 'pi_expanded' });
		});

		it('refund.created: the PaymentIntent; full or partial only with the charge expanded', () => {
			const refund = (charge: string | IDataObject, amount = 500) =>
				event('refund.created', {
					id: 're_1',
					object: 'refund',
					amount,
					currency: 'usd',
					payment_intent: 'pi_refunded',
					charge,
					status: 'succeeded',
					metadata: {},
				});
			expect(itemOf('stripe', refund('ch_1'))).toMatchObject({
				kind: 'refund',
				refundType: null,
				transactionId: 'pi_refunded',
				amount: '5.00',
				missing: ['refundType', 'refundedTotalMinor', 'paidMinor', 'userId'],
			});
			expect(
				itemOf('stripe', refund({ id: 'ch_1', amount_captured: 500, amount_refunded: 500 })),
			).toMatchObject({ refundType: 'full' });
			expect(
				itemOf('stripe', refund({ id: 'ch_1', amount_captured: 900, amount_refunded: 500 })),
			).toMatchObject({ refundType: 'partial' });
		});
	});

	it('Paddle Billing: an adjustment is a refund only when it is a refund (or a chargeback) and approved', () => {
		const approved = sample('paddle', 'refund');
		const withData = (data: IDataObject) => patchedAt(approved, ['data'], data);
		expect(itemOf('paddle', approved)).toMatchObject({
			kind: 'refund',
			userId: null,
			metadata: null,
			missing: ['refundedTotalMinor', 'paidMinor', 'userId', 'metadata'],
		});
		expect(itemOf('paddle', withData({ status: 'pending_approval' }))).toMatchObject({
			kind: 'other',
			refundType: null,
			transactionId: 'txn_shared_1',
		});
		expect(itemOf('paddle', withData({ action: 'credit' })).kind).toBe('other');
		const created = { ...approved, event_type: 'adjustment.created' };
		expect(itemOf('paddle', created)).toMatchObject({
			kind: 'refund',
			eventType: 'adjustment.created',
		});
	});

	it('Lemon Squeezy: takes the event name only from the signed body (meta.event_name)', () => {
		expect(eventTypeOf('lemonSqueezy', { meta: { event_name: 'order_refunded' } })).toBe(
			'order_refunded',
		);
		expect(eventTypeOf('lemonSqueezy', { data: {} })).toBeNull();
		expect(eventTypeOf('lemonSqueezy', {})).toBeNull();
	});

	it('Lemon Squeezy: an order that is not paid is no purchase', () => {
		const body = sample('lemonSqueezy', 'purchase');
		const pending = patchedAt(body, ['data', 'attributes'], { status: 'pending' });
		expect(itemOf('lemonSqueezy', pending).kind).toBe('other');
	});

	describe('Creem', () => {
		const refund = sample('creem', 'refund');
		const refundWith = (object: IDataObject) =>
			itemOf('creem', patchedAt(refund, ['object'], object));

		it('a refund names its order as an ID, expanded, or through its transaction', () => {
			expect(refundWith({ order: { id: 'txn_shared_1', amount: 10000 } })).toMatchObject({
				transactionId: 'txn_shared_1',
				refundType: 'full',
			});
			expect(refundWith({ order: undefined })).toMatchObject({ transactionId: 'txn_shared_1' });
			expect(refundWith({ order: undefined, transaction: {} })).toMatchObject({
				transactionId: null,
				refundType: null,
				missing: expect.arrayContaining(['transactionId', 'refundType']),
			});
		});

		it('a failed or canceled refund is refundFailed; an unpaid order is no purchase', () => {
			expect(refundWith({ status: 'failed' }).kind).toBe('refundFailed');
			expect(refundWith({ status: 'canceled' }).kind).toBe('refundFailed');
			const purchase = sample('creem', 'purchase');
			const unpaid = patchedAt(purchase, ['object', 'order'], { status: 'pending' });
			expect(itemOf('creem', unpaid)).toMatchObject({
				kind: 'other',
				transactionId: 'txn_shared_1',
			});
		});
	});

	// Issue 51: only money that went back is a refund; a pending one is not yet, a failed one is
	// its own kind so that a ledger can take it out of a sum.
	it('takes Paddle’s amounts as digit strings, and nothing that is no whole number', () => {
		const body = sample('paddle', 'purchase');
		const withTotal = (total: string | number) =>
			patchedAt(body, ['data'], { details: { totals: { total, currency_code: 'USD' } } });
		expect(itemOf('paddle', withTotal('2599'))).toMatchObject({
			amountMinor: 2599,
			amount: '25.99',
		});
		expect(itemOf('paddle', withTotal('25.99'))).toMatchObject({ amountMinor: null, amount: null });
		expect(itemOf('paddle', withTotal(12.5))).toMatchObject({ amountMinor: null });
	});

	it("the examples' sample items are what the trigger makes of their events", () => {
		const samples = EXAMPLES.flatMap(({ file }) =>
			(readExample(file).nodes as Array<{ parameters: IDataObject }>)
				.map(({ parameters }) => parameters.jsonOutput)
				// A literal sample, not an answer built by an expression (`={{ … }}`).
				.filter((output): output is string => typeof output === 'string' && !output.startsWith('='))
				.map((output) => JSON.parse(output) as IDataObject)
				.filter((sample) => sample.provider !== undefined && sample.event !== undefined),
		);
		expect(samples.length).toBeGreaterThanOrEqual(2);
		for (const sample of samples) {
			const facts = {
				signedAt: Date.parse(String(sample.signedAt)) / 1000,
				messageId: null,
				userIdMetadataKey: DEFAULT_USER_ID_METADATA_KEY,
			};
			const event = sample.event as IDataObject;
			expect(
				paymentEventItem(sample.provider as Provider, String(sample.eventType), event, facts),
			).toEqual(sample);
		}
	});
});
