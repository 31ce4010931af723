/** The trigger's decisions on the sources: new results, balance changes and the change_id. */
import type { IDataObject } from 'n8n-workflow';

import {
	balanceFiguresOf,
	balanceItems,
	CHANGE_ID_LENGTH,
	RESULT_FIGURES,
	resultFiguresOf,
	resultsItem,
	resultsWentUp,
	type BalanceAmounts,
	type ResultFigures,
} from '../../nodes/AffiliateTrackingTrigger/changes';
import { scenario } from '../../support/scenarios';

const statistics = {
	object: 'promoter_statistics',
	clicks: 10,
	signups: 4,
	paying_customers: 2,
	rewards_paid: '5.00',
	rewards_accrued: '12.50',
	currency: 'USD',
	start_date: null,
	end_date: null,
};
const before = resultFiguresOf(statistics);
const amounts = { available: '125.50', pending: '3.00', withdrawing: '20.00' };

describe(scenario('pollingTrigger.results'), () => {
	it('keeps only the figures', () => {
		expect(before).toEqual({
			clicks: 10,
			signups: 4,
			paying_customers: 2,
			rewards_paid: '5.00',
			rewards_accrued: '12.50',
		});
	});

	it.each([
		['nothing changed', {}, RESULT_FIGURES, false],
		['a click', { clicks: 11 }, RESULT_FIGURES, true],
		['a click, when only paying customers count', { clicks: 11 }, ['paying_customers'], false],
		['a refund took a paying customer away', { paying_customers: 1 }, RESULT_FIGURES, false],
		['rewards accrued by a cent', { rewards_accrued: '12.51' }, RESULT_FIGURES, true],
		['the same amount written otherwise', { rewards_accrued: '12.5' }, RESULT_FIGURES, false],
	] as const)('%s', (_name, change, counted, wentUp) => {
		const after = resultFiguresOf({ ...statistics, ...change });
		expect(resultsWentUp(before, after, counted)).toBe(wentUp);
	});

	it('an item holds the new totals and the increase of each figure', () => {
		const after = { ...statistics, clicks: 13, paying_customers: 1, rewards_accrued: '20.00' };
		expect(resultsItem('u1', after, before, 1_700_000_000_000)).toEqual({
			change_id: expect.stringMatching(/^[0-9a-f]{16}$/),
			user_id: 'u1',
			clicks: 13,
			signups: 4,
			paying_customers: 1,
			rewards_paid: '5.00',
			rewards_accrued: '20.00',
			currency: 'USD',
			increase: {
				clicks: 3,
				signups: 0,
				paying_customers: -1,
				rewards_paid: '0.00',
				rewards_accrued: '7.50',
			},
		});
	});
});

describe(scenario('pollingTrigger.balance'), () => {
	const balances = [
		{ object: 'balance', currency: 'EUR', available: '5.00', pending: '0.00', withdrawing: '0.00' },
		{ object: 'balance', currency: 'USD', ...amounts },
	];
	const previous = balanceFiguresOf(balances);

	it('no change, no item', () => {
		expect(balanceItems('u1', balanceFiguresOf(balances), previous, 1)).toEqual([]);
	});

	it('one item per currency that changed, with old and new amounts; a new currency has old null', () => {
		const current = balanceFiguresOf([
			balances[0],
			{ ...balances[1], pending: '4.00' },
			{ ...balances[0], currency: 'GBP', available: '1.00' },
		]);
		const item = { change_id: expect.stringMatching(/^[0-9a-f]{16}$/), user_id: 'u1' };
		expect(balanceItems('u1', current, previous, 1)).toEqual([
			{
				...item,
				currency: 'USD',
				old: amounts,
				new: { ...amounts, pending: '4.00' },
			},
			{
				...item,
				currency: 'GBP',
				old: null,
				new: { available: '1.00', pending: '0.00', withdrawing: '0.00' },
			},
		]);
	});

	it('for Fetch Test Event, every currency', () => {
		const items = balanceItems('u1', previous, undefined, undefined, true);
		expect(items.map((item) => item.currency)).toEqual(['EUR', 'USD']);
	});
});

describe(scenario('pollingTrigger.changeId'), () => {
	const AT = 1_700_000_000_000;
	const after = { ...statistics, clicks: 11 };

	/** One variation of a change; `null` is "none" (no stored figures, no record time). */
	interface Variant {
		userId?: string;
		recordedAt?: number | null;
	}
	const recordTime = (variant: Variant) =>
		variant.recordedAt === null ? undefined : (variant.recordedAt ?? AT);

	const resultsId = (
		variant: Variant & { current?: IDataObject; previous?: ResultFigures | null } = {},
	) =>
		resultsItem(
			variant.userId ?? 'u1',
			variant.current ?? after,
			variant.previous === null ? undefined : (variant.previous ?? before),
			recordTime(variant),
		).change_id;

	const balanceId = (
		variant: Variant & {
			currency?: string;
			next?: Partial<BalanceAmounts>;
			old?: Partial<BalanceAmounts> | null;
		} = {},
	) => {
		const currency = variant.currency ?? 'USD';
		const [item] = balanceItems(
			variant.userId ?? 'u1',
			{ [currency]: { ...amounts, ...(variant.next ?? { available: '130.00' }) } },
			variant.old === null ? undefined : { [currency]: { ...amounts, ...variant.old } },
			recordTime(variant),
		);
		return item.change_id;
	};

	it(`is ${CHANGE_ID_LENGTH} hex digits; a repeat (same stored figures, same new figures) gives the same`, () => {
		expect(resultsId()).toMatch(/^[0-9a-f]{16}$/);
		expect(resultsId()).toBe(resultsId({ current: { ...after }, previous: { ...before } }));
		expect(balanceId()).toMatch(/^[0-9a-f]{16}$/);
		expect(balanceId()).toBe(balanceId({ next: { available: '130.00' }, old: { ...amounts } }));
	});

	it('amounts written otherwise are the same figures', () => {
		expect(resultsId({ current: { ...after, rewards_accrued: '12.5' } })).toBe(resultsId());
		expect(balanceId({ next: { available: '130' }, old: { pending: '3' } })).toBe(balanceId());
	});

	it.each(RESULT_FIGURES)('results: %s differing before or after gives another ID', (figure) => {
		const bumped = (figures: IDataObject) => ({
			...figures,
			[figure]: figure.startsWith('rewards') ? '99.99' : 999,
		});
		const ids = new Set([
			resultsId(),
			resultsId({ current: bumped(after) }),
			resultsId({ previous: resultFiguresOf(bumped(statistics)) }),
		]);
		expect(ids.size).toBe(3);
	});

	it.each(['available', 'pending', 'withdrawing'])(
		'balances: %s differing before or after gives another ID',
		(amount) => {
			const ids = new Set([
				balanceId(),
				balanceId({ next: { available: '130.00', [amount]: '777.77' } }),
				balanceId({ old: { [amount]: '666.66' } }),
			]);
			expect(ids.size).toBe(3);
		},
	);

	it('another promoter, currency or record time, or no stored figures, gives another ID', () => {
		const ids = [
			balanceId(),
			balanceId({ userId: 'u2' }),
			balanceId({ currency: 'EUR' }),
			balanceId({ recordedAt: AT + 60_000 }),
			balanceId({ recordedAt: null }),
			balanceId({ old: null }),
			resultsId(),
			resultsId({ userId: 'u2' }),
			resultsId({ recordedAt: AT + 60_000 }),
			resultsId({ recordedAt: null }),
			resultsId({ previous: null }),
			resultsId({ current: { ...after, currency: 'EUR' } }),
		];
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('a balance that returns to earlier figures and changes the same way again gets a new ID', () => {
		// 125.50 → 130.00 seen at one poll; back to 125.50 later; then 125.50 → 130.00 again.
		expect(balanceId({ recordedAt: AT })).not.toBe(balanceId({ recordedAt: AT + 180_000 }));
	});

	it('the two events never give the same ID, even for the same user, currency and numbers', () => {
		const zeros = {
			clicks: 0,
			signups: 0,
			paying_customers: 0,
			rewards_accrued: '0',
			rewards_paid: '0',
		};
		const zero = { available: '0', pending: '0', withdrawing: '0' };
		const results = resultsItem('u1', { ...zeros, currency: 'USD' }, resultFiguresOf(zeros), AT);
		const [balance] = balanceItems('u1', { USD: zero }, { USD: zero }, AT, true);
		expect(results.change_id).not.toBe(balance.change_id);
		// Across many changes of each, no ID of one event is an ID of the other.
		const resultsIds = new Set<unknown>();
		const balanceIds = new Set<unknown>();
		for (let n = 0; n < 200; n++) {
			resultsIds.add(resultsId({ current: { ...statistics, clicks: n } }));
			balanceIds.add(balanceId({ next: { available: (n / 100).toFixed(2) } }));
		}
		expect(resultsIds.size).toBe(200);
		expect(balanceIds.size).toBe(200);
		expect([...resultsIds].filter((id) => balanceIds.has(id))).toEqual([]);
	});
});
