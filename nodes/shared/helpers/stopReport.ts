/**
 * What happened to every input item of a run that stopped on an error, in words a user can act
 * on: which items the service recorded (so must not be sent again), which failed, which may or
 * may not have been recorded, and which were never sent.
 */
import { isSafeToRepeat, type OperationProfile } from '../transport/operationProfile';

/** An item's fate in a run. Items start as `notSent`. */
export type ItemState = 'succeeded' | 'failed' | 'uncertain' | 'notSent';

export interface StopReportInput {
	states: readonly ItemState[];
	profile: OperationProfile;
	/** The item whose failure stopped the run. */
	stoppedAt: number;
	/** The key of an item (read only for the few the report names). */
	keyOf(itemIndex: number): string | undefined;
	/** The error message of a failed or uncertain item. */
	messageOf(itemIndex: number): string | undefined;
}

/** How many keys or messages a group names before "and N more". */
export const NAMED_PER_GROUP = 5;
/** How many index ranges a group lists before "and N more". */
export const RANGES_PER_GROUP = 20;

/** Sorted indexes as ranges: [0,1,2,5,7,8] → "0-2, 5, 7-8" (at most RANGES_PER_GROUP). */
export function formatRanges(indexes: readonly number[]): string {
	const ranges: string[] = [];
	for (let at = 0; at < indexes.length; ) {
		let end = at;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		ranges.push(at === end ? String(indexes[at]) : `${indexes[at]}-${indexes[end]}`);
		at = end + 1;
	}
	if (ranges.length <= RANGES_PER_GROUP) return ranges.join(', ');
	const rest = ranges.length - RANGES_PER_GROUP;
	return `${ranges.slice(0, RANGES_PER_GROUP).join(', ')} and ${rest} more range${rest === 1 ? '' : 's'}`;
}

function named(
	indexes: readonly number[],
	describe: (itemIndex: number) => string | undefined,
): string {
	const shown = indexes
		.slice(0, NAMED_PER_GROUP)
		.map((itemIndex) => `${itemIndex}: ${describe(itemIndex) ?? '(empty)'}`);
	const rest = indexes.length - shown.length;
	return rest > 0 ? `${shown.join('; ')}; and ${rest} more` : shown.join('; ');
}

/** The indexes of the items in each state, in input order. */
export function groupByState(states: readonly ItemState[]): Record<ItemState, number[]> {
	const groups: Record<ItemState, number[]> = {
		succeeded: [],
		failed: [],
		uncertain: [],
		notSent: [],
	};
	states.forEach((state, itemIndex) => groups[state].push(itemIndex));
	return groups;
}

export function describeStoppedRun(input: StopReportInput): string {
	const { states, profile, stoppedAt } = input;
	const groups = groupByState(states);
	const keyLabel = profile.key.displayName;
	const records = profile.kind !== 'read';
	const lines = [
		`The node stopped at item ${stoppedAt}: it started no further item and waited for those under way. All ${states.length} input items, by index:`,
	];
	if (groups.succeeded.length > 0) {
		lines.push(
			`- ${records ? 'Recorded by the service' : 'Succeeded'} (${groups.succeeded.length}): ${formatRanges(groups.succeeded)}. ${keyLabel}: ${named(groups.succeeded, input.keyOf)}.`,
		);
	}
	if (groups.failed.length > 0) {
		lines.push(
			`- Failed, not recorded (${groups.failed.length}): ${formatRanges(groups.failed)}. ${named(groups.failed, input.messageOf)}.`,
		);
	}
	if (groups.uncertain.length > 0) {
		lines.push(
			`- Sent, outcome unknown (${groups.uncertain.length}): ${formatRanges(groups.uncertain)}. The request may have reached the service; check ${keyLabel} ${named(groups.uncertain, input.keyOf)} in the brand dashboard.`,
		);
	}
	if (groups.notSent.length > 0) {
		lines.push(`- Never sent (${groups.notSent.length}): ${formatRanges(groups.notSent)}.`);
	}
	lines.push(
		isSafeToRepeat(profile)
			? `Running all items again is safe: repeating ${profile.action} changes nothing more.`
			: `Re-run only the items that were not recorded: ${profile.action} is not safe to repeat for an item the service recorded. For batch writes, set On Error to "Continue (using error output)" so that every item reports its own outcome.`,
	);
	return lines.join('\n');
}
