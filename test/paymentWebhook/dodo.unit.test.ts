/**
 * Dodo Payments (nodes/PaymentWebhookTrigger/providers/dodo/): its deliveries are Standard
 * Webhooks under the `whsec_…` secret Dodo shows, held to the standard's own library; its events,
 * in the shapes of Dodo's webhook payloads, become the trigger's items.
 */
import type { IDataObject } from 'n8n-workflow';
import { Webhook } from 'standardwebhooks';

import {
	DEFAULT_TOLERANCE_SECONDS,
	secretProblem,
	verifyDelivery,
} from '../../nodes/PaymentWebhookTrigger/signatures';
import {
	disputeEvent,
	sampleEvent,
	SIGNERS,
	signDelivery,
	withSigningSecret,
} from '../../support/payment/paymentSignatures';
import { testSigningSecret } from '../../support/fakes/fakeWebhookContext';
import { itemOf, MESSAGE_ID, patchedAt } from '../../support/fakes/paymentItem';
import { scenario } from '../../support/scenarios';

const { secret: SECRET, otherSecret: OTHER_SECRET } = SIGNERS.dodo;
const PAYMENT_ID = 'pay_dodo_1';
const NOW = 1_764_000_000;

const purchase = () =>
	sampleEvent('dodo', 'purchase', {
		transactionId: PAYMENT_ID,
		amountMinor: 4999,
		currency: 'EUR',
	}) as IDataObject;

/** A refund of `refundedMinor` of a 100.00 USD payment, its refund ID `ref_<key>`. */
const refund = (refundedMinor: number, key = 'first') =>
	sampleEvent('dodo', 'refund', {
		transactionId: PAYMENT_ID,
		refundedMinor,
		refundKey: key,
	}) as IDataObject;

const dispute = (outcome: 'opened' | 'won' | 'lost') =>
	disputeEvent('dodo', outcome, { transactionId: PAYMENT_ID, amountMinor: 4900 }) as IDataObject;

const verify = (rawBody: string, headers: Record<string, string>, nowSeconds = NOW) =>
	verifyDelivery({
		provider: 'dodo',
		rawBody: Buffer.from(rawBody, 'utf8'),
		headers,
		secrets: withSigningSecret(SECRET),
		settings: {},
		toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
		nowSeconds,
	});

describe(scenario('paymentWebhook.dodo'), () => {
	describe('deliveries', () => {
		const rawBody = JSON.stringify(purchase());
		const headers = signDelivery('dodo', rawBody, SECRET, { timestamp: NOW, eventId: 'msg_1' });

		it("the standard's library and the provider accept the same delivery", () => {
			expect(secretProblem('dodo', withSigningSecret(SECRET))).toBeNull();
			const library = new Webhook(SECRET);
			const sentNow = signDelivery('dodo', rawBody, SECRET, { eventId: 'msg_now' });
			expect(() => library.verify(rawBody, sentNow)).not.toThrow();
			expect(verify(rawBody, headers)).toEqual({ valid: true, signedAt: NOW, messageId: 'msg_1' });
		});

		it('refuses a changed body, another secret and an old timestamp', () => {
			const changed = rawBody.replace(PAYMENT_ID, 'pay_dodo_2');
			expect(verify(changed, headers)).toMatchObject({ valid: false });
			const other = signDelivery('dodo', rawBody, OTHER_SECRET, { timestamp: NOW });
			expect(verify(rawBody, other)).toMatchObject({ valid: false });
			expect(verify(rawBody, headers, NOW + 3600)).toEqual({
				valid: false,
				reason: `signed 3600 s ago, more than the tolerance of ${DEFAULT_TOLERANCE_SECONDS} s`,
			});
		});

		it.each([
			['whsec_not base64!', 'not a Dodo Payments secret'],
			['', 'The Signing Secret is empty'],
		])('refuses the secret %j as unusable, naming Dodo Payments', (secret, problem) => {
			expect(secretProblem('dodo', withSigningSecret(secret))).toContain(problem);
		});

		it('the credential test names Dodo Payments for its secret', async () => {
			const result = await testSigningSecret(SECRET);
			expect(result).toMatchObject({ status: 'OK' });
			expect(result.message).toContain('Dodo Payments');
			expect(result.message).not.toContain(SECRET);
		});
	});

	it('payment.succeeded: a purchase of total_amount, keyed by payment_id, the user in metadata', () => {
		expect(itemOf('dodo', purchase())).toMatchObject({
			provider: 'dodo',
			eventType: 'payment.succeeded',
			eventId: MESSAGE_ID,
			kind: 'purchase',
			transactionId: PAYMENT_ID,
			amount: '49.99',
			amountMinor: 4999,
			currency: 'EUR',
			userId: 'user_1001',
			missing: [],
		});
		const failed = patchedAt(purchase(), ['data'], { status: 'failed' });
		expect(itemOf('dodo', failed)).toMatchObject({ kind: 'other' });
	});

	it.each([
		['full', 10000, 'full'],
		['partial', 4000, 'partial'],
	])(
		'refund.succeeded, %s: refundType from is_partial, no total nor what was paid',
		(_t, refundedMinor, refundType) => {
			const item = itemOf('dodo', refund(refundedMinor));
			expect(item).toMatchObject({
				kind: 'refund',
				refundType,
				refundReason: 'refund',
				refundId: 'ref_first',
				transactionId: PAYMENT_ID,
				amountMinor: refundedMinor,
				refundedTotalMinor: null,
				paidMinor: null,
				currency: 'USD',
			});
			expect(item.missing).toEqual(['refundedTotalMinor', 'paidMinor', 'userId']);
		},
	);

	it('is_partial, not the amount, says full or partial; neither sent: refundType null', () => {
		const saysPartial = patchedAt(refund(10000), ['data'], { is_partial: true });
		expect(itemOf('dodo', saysPartial).refundType).toBe('partial');
		const unsaid = patchedAt(refund(10000), ['data'], { is_partial: undefined });
		expect(itemOf('dodo', unsaid)).toMatchObject({ kind: 'refund', refundType: null });
	});

	// The kind of each refund event with each status: `refundFailed` keeps the refund's own fields.
	const KIND_BY_STATUS: Record<string, Record<string, string>> = {
		'refund.failed': { failed: 'refundFailed', succeeded: 'refundFailed' },
		'refund.succeeded': { failed: 'refundFailed', pending: 'other', review: 'other' },
	};
	describe.each(Object.keys(KIND_BY_STATUS))('%s', (type) => {
		it.each(Object.entries(KIND_BY_STATUS[type]))('with status %s: kind %s', (status, kind) => {
			const item = itemOf('dodo', patchedAt({ ...refund(4000), type }, ['data'], { status }));
			expect(item).toMatchObject({ eventType: type, kind, refundReason: null });
			if (kind === 'refundFailed') {
				expect(item).toMatchObject({ refundId: 'ref_first', amountMinor: 4000 });
			}
		});
	});

	it.each([
		['a string of the smallest unit', '4900'],
		['a number of the smallest unit', 4900],
		['a decimal string', '49.00'],
	])('dispute.lost, its amount %s: a chargeback of the whole payment', (_t, amount) => {
		const lost = patchedAt(dispute('lost'), ['data'], { amount });
		expect(itemOf('dodo', lost)).toMatchObject({
			kind: 'refund',
			refundType: 'full',
			refundReason: 'chargeback',
			refundId: `dsp_${PAYMENT_ID}`,
			transactionId: PAYMENT_ID,
			amount: '49.00',
			amountMinor: 4900,
		});
	});

	it('dispute.lost with an amount that is no amount: still a chargeback, amount missing', () => {
		const lost = patchedAt(dispute('lost'), ['data'], { amount: '49.001' });
		const item = itemOf('dodo', lost);
		expect(item).toMatchObject({ refundReason: 'chargeback', amountMinor: null });
		expect(item.missing).toContain('amountMinor');
	});

	it('dispute.opened and dispute.won reverse nothing; other events are kind other', () => {
		for (const outcome of ['opened', 'won'] as const) {
			expect(itemOf('dodo', dispute(outcome))).toMatchObject({ kind: 'other' });
		}
		const active = sampleEvent('dodo', 'purchase', { transactionId: 'x' }) as IDataObject;
		expect(itemOf('dodo', { ...active, type: 'subscription.active' }).kind).toBe('other');
	});
});
