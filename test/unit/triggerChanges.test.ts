/** The trigger's decisions on the sources: what counts as new results, and balance changes. */
import {
	balanceFiguresOf,
	balanceItems,
	RESULT_FIGURES,
	resultFiguresOf,
	resultsItem,
	resultsWentUp,
} from '../../nodes/AffiliateTrackingTrigger/changes';

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

describe('Promoter Results Changed', () => {
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
		expect(resultsItem('u1', after, before)).toEqual({
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

describe('Promoter Balance Changed', () => {
	const balances = [
		{ object: 'balance', currency: 'EUR', available: '5.00', pending: '0.00', withdrawing: '0.00' },
		{
			object: 'balance',
			currency: 'USD',
			available: '125.50',
			pending: '3.00',
			withdrawing: '20.00',
		},
	];
	const previous = balanceFiguresOf(balances);

	it('no change, no item', () => {
		expect(balanceItems('u1', balanceFiguresOf(balances), previous)).toEqual([]);
	});

	it('one item per currency that changed, with old and new amounts; a new currency has old null', () => {
		const current = balanceFiguresOf([
			balances[0],
			{ ...balances[1], pending: '4.00' },
			{
				object: 'balance',
				currency: 'GBP',
				available: '1.00',
				pending: '0.00',
				withdrawing: '0.00',
			},
		]);
		expect(balanceItems('u1', current, previous)).toEqual([
			{
				user_id: 'u1',
				currency: 'USD',
				old: { available: '125.50', pending: '3.00', withdrawing: '20.00' },
				new: { available: '125.50', pending: '4.00', withdrawing: '20.00' },
			},
			{
				user_id: 'u1',
				currency: 'GBP',
				old: null,
				new: { available: '1.00', pending: '0.00', withdrawing: '0.00' },
			},
		]);
	});

	it('for Fetch Test Event, every currency', () => {
		expect(balanceItems('u1', previous, undefined, true).map((item) => item.currency)).toEqual([
			'EUR',
			'USD',
		]);
	});
});
