/** The report of a stopped run: ranges, named keys, and a size that stays readable. */
import { profile as REFUND } from '../../nodes/AffiliateTracking/actions/conversion/refund.operation';
import { profile as SIGNUP } from '../../nodes/AffiliateTracking/actions/conversion/trackSignup.operation';
import {
	describeStoppedRun,
	formatRanges,
	NAMED_PER_GROUP,
	RANGES_PER_GROUP,
	type ItemState,
} from '../../nodes/shared/helpers/stopReport';
import { scenario } from '../../support/scenarios';

describe(scenario('itemLoop.ranges'), () => {
	it.each([
		[[], ''],
		[[3], '3'],
		[[0, 1, 2, 5, 7, 8], '0-2, 5, 7-8'],
		[[9, 10, 11, 12], '9-12'],
	])('%j → "%s"', (indexes, expected) => {
		expect(formatRanges(indexes)).toBe(expected);
	});

	it(`lists at most ${RANGES_PER_GROUP} ranges`, () => {
		const everyOther = Array.from({ length: 50 }, (_, i) => i * 2);
		expect(formatRanges(everyOther)).toBe(
			`${everyOther.slice(0, RANGES_PER_GROUP).join(', ')} and 30 more ranges`,
		);
	});
});

describe(scenario('itemLoop.stopReport'), () => {
	it('stays short for 10,000 items: ranges, and only the first keys read', () => {
		const states = Array.from({ length: 10_000 }, (_, i): ItemState => {
			if (i === 4_000) return 'failed';
			return i < 4_000 || (i < 4_020 && i % 2 === 0) ? 'succeeded' : 'notSent';
		});
		const keysRead: number[] = [];
		const report = describeStoppedRun({
			states,
			profile: SIGNUP,
			stoppedAt: 4_000,
			keyOf: (itemIndex) => {
				keysRead.push(itemIndex);
				return `user_${itemIndex}`;
			},
			messageOf: () => 'The invite code does not match any promotion link of this product',
		});
		expect(keysRead).toEqual([0, 1, 2, 3, 4]);
		expect(keysRead).toHaveLength(NAMED_PER_GROUP);
		expect(report.length).toBeLessThan(1_200);
		expect(report.split('\n')).toEqual([
			'The node stopped at item 4000: it started no further item and waited for those under way. All 10000 input items, by index:',
			'- Recorded by the service (4009): 0-3999, 4002, 4004, 4006, 4008, 4010, 4012, 4014, 4016, 4018. Invited User ID: 0: user_0; 1: user_1; 2: user_2; 3: user_3; 4: user_4; and 4004 more.',
			'- Failed, not recorded (1): 4000. 4000: The invite code does not match any promotion link of this product.',
			'- Never sent (5990): 4001, 4003, 4005, 4007, 4009, 4011, 4013, 4015, 4017, 4019-9999.',
			'Re-run only the items that were not recorded: Track Signup is not safe to repeat for an item the service recorded. For batch writes, set On Error to "Continue (using error output)" so that every item reports its own outcome.',
		]);
	});

	it('says a re-run is safe for an operation that is safe to repeat', () => {
		const report = describeStoppedRun({
			states: ['succeeded', 'failed', 'notSent'],
			profile: REFUND,
			stoppedAt: 1,
			keyOf: (itemIndex) => `txn_${itemIndex}`,
			messageOf: () => 'The conversion has already been voided',
		});
		expect(report.split('\n').at(-1)).toBe(
			'Running all items again is safe: repeating Refund changes nothing more.',
		);
		expect(report).toContain('- Recorded by the service (1): 0. Transaction ID: 0: txn_0.');
	});

	it('names an item whose key cannot be read', () => {
		const report = describeStoppedRun({
			states: ['succeeded', 'failed'],
			profile: SIGNUP,
			stoppedAt: 1,
			keyOf: () => undefined,
			messageOf: () => undefined,
		});
		expect(report).toContain('Invited User ID: 0: (empty).');
		expect(report).toContain('- Failed, not recorded (1): 1. 1: (empty).');
	});
});
