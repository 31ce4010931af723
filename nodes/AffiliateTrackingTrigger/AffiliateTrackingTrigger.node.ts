import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import {
	assertSupportedN8n,
	MAIN_CONNECTION,
	pollBudgetMs,
} from '../shared/helpers/n8nCompatibility';
import {
	fitsPromoterPath,
	promoterBalancesProfile,
	promoterPath,
	promoterStatisticsProfile,
} from '../shared/helpers/promoterReads';
import { parseRunOptions, readOptionsCollection, type Pacing } from '../shared/helpers/runOptions';
import {
	concurrencyOption,
	maxRetriesOption,
	optionsCollection,
	retryDelayOption,
	timeoutOption,
} from '../shared/helpers/sharedOptions';
import { MAX_FIELD_LENGTH, parameterMessage } from '../shared/helpers/validation';
import { apiRequest, CREDENTIAL_NAME } from '../shared/transport';
import { ERROR_CONTEXT } from '../shared/transport/errors';
import type { RequestSettings } from '../shared/transport/requestSettings';
import {
	balanceFiguresOf,
	balanceItems,
	RESULT_FIGURES,
	resultFiguresOf,
	resultsItem,
	resultsWentUp,
	type BalanceFigures,
	type PollState,
	type ResultFigure,
	type ResultFigures,
	type TriggerEvent,
} from './changes';

assertSupportedN8n();

export const DEFAULT_MAX_PROMOTERS = 100;
export const MAX_PROMOTERS_LIMIT = 1000;
/** How many failed promoters an error names before "and N more". */
const FAILURES_NAMED = 10;
/** Share of n8n's poll budget spent reading; promoters not reached keep their figures. */
const BUDGET_SHARE = 0.8;

const watchListField: INodeProperties = {
	displayName: 'Promoter User IDs',
	name: 'userIds',
	type: 'string',
	typeOptions: { rows: 4 },
	required: true,
	default: '',
	placeholder: 'user_1001\nuser_1002',
	description:
		'The promoters to watch: your user IDs (as given to Promoter Login), one per line or separated by commas, or an expression giving a list. Each poll reads each of them once.',
};

const maxPromotersOption: INodeProperties = {
	displayName: 'Max Promoters per Poll',
	name: 'maxPromoters',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_PROMOTERS_LIMIT },
	default: 100,
	description: `The most user IDs the watch list may hold (up to ${MAX_PROMOTERS_LIMIT}): a longer list stops the poll with an error instead of sending that many requests`,
};

type Reading =
	| { userId: string; figures: IDataObject | IDataObject[] }
	| { userId: string; error: NodeApiError | NodeOperationError }
	| { userId: string; skipped: true };

/** The watch list: text with one ID per line or comma-separated, or an expression's list. */
function readWatchList(context: IPollFunctions, maxPromoters: number): string[] {
	const raw = context.getNodeParameter(watchListField.name, '');
	const entries = Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(/[\n,]/);
	const userIds = [...new Set(entries.map((entry) => entry.trim()).filter((id) => id !== ''))];
	const fail = (rule: string) =>
		new NodeOperationError(context.getNode(), parameterMessage(watchListField, rule), {
			description: 'No request was sent. Fix the watch list and save the workflow.',
		});
	if (userIds.length === 0) throw fail('must name at least one promoter user ID');
	const tooLong = userIds.find((id) => id.length > MAX_FIELD_LENGTH);
	if (tooLong !== undefined) {
		throw fail(
			`holds an ID longer than ${MAX_FIELD_LENGTH} characters ("${tooLong.slice(0, 40)}…")`,
		);
	}
	const dotted = userIds.find((id) => !fitsPromoterPath(id));
	if (dotted !== undefined) throw fail(`cannot hold "${dotted}", which is no user ID`);
	if (userIds.length > maxPromoters) {
		throw fail(
			`holds ${userIds.length} user IDs, more than ${maxPromotersOption.displayName} (${maxPromoters}). Raise that option (up to ${MAX_PROMOTERS_LIMIT}), or split the list across several triggers.`,
		);
	}
	return userIds;
}

function readCountedFigures(options: IDataObject): readonly ResultFigure[] {
	const chosen = Array.isArray(options.figures) ? options.figures.map(String) : [];
	return chosen.length === 0
		? RESULT_FIGURES
		: RESULT_FIGURES.filter((figure) => chosen.includes(figure));
}

/**
 * Reads every watched promoter's figures, a few at a time (Concurrency), through the node's
 * transport and its retries (`settings`); a promoter that fails is kept as an error, not thrown,
 * so that the others are still read. Nothing new starts once the poll's time budget is mostly
 * spent.
 */
async function readFigures(
	context: IPollFunctions,
	event: TriggerEvent,
	userIds: string[],
	{ concurrency }: Pacing,
	settings: RequestSettings,
): Promise<Reading[]> {
	const deadline = Date.now() + pollBudgetMs(context) * BUDGET_SHARE;
	const readings: Reading[] = new Array(userIds.length);
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < userIds.length) {
			const index = next++;
			const userId = userIds[index];
			if (Date.now() > deadline) {
				readings[index] = { userId, skipped: true };
				continue;
			}
			try {
				const figures = (await apiRequest(
					context,
					event === 'promoterResultsChanged'
						? {
								method: 'GET',
								path: promoterPath(userId, '/statistics'),
								operation: promoterStatisticsProfile,
							}
						: {
								method: 'GET',
								path: promoterPath(userId, '/balances'),
								operation: promoterBalancesProfile,
							},
					index,
					settings,
				)) as IDataObject | IDataObject[];
				readings[index] = { userId, figures };
			} catch (error) {
				readings[index] = { userId, error: error as NodeApiError | NodeOperationError };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, userIds.length) }, worker));
	return readings;
}

/** One error for every promoter that could not be read in a poll. */
function failuresError(
	context: IPollFunctions,
	failures: Array<Extract<Reading, { error: unknown }>>,
	watched: number,
): NodeOperationError {
	const lines = failures.slice(0, FAILURES_NAMED).map(({ userId, error }) => {
		const code = error.context[ERROR_CONTEXT.envelopeCode];
		const remedy = error.description?.split('\n')[0];
		return `${userId}: ${error.message}${code === undefined ? '' : ` (code ${code})`}${remedy ? `. ${remedy}` : ''}`;
	});
	if (failures.length > FAILURES_NAMED) lines.push(`and ${failures.length - FAILURES_NAMED} more`);
	return new NodeOperationError(
		context.getNode(),
		`${failures.length} of ${watched} watched promoters could not be read`,
		{
			description: `The others were polled as usual; these keep their last figures until they can be read.\n${lines.join('\n')}`,
		},
	);
}

const figuresOption: INodeProperties = {
	displayName: 'Figures That Count',
	name: 'figures',
	type: 'multiOptions',
	displayOptions: { show: { '/event': ['promoterResultsChanged'] } },
	options: [
		{ name: 'Clicks', value: 'clicks' },
		{ name: 'Paying Customers', value: 'paying_customers' },
		{ name: 'Rewards Accrued', value: 'rewards_accrued' },
		{ name: 'Rewards Paid', value: 'rewards_paid' },
		{ name: 'Signups', value: 'signups' },
	],
	default: [],
	description: 'Which figures going up make a promoter "changed". None chosen: all of them.',
};

export class AffiliateTrackingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Affiliate Tracking Trigger',
		name: 'affiliateTrackingTrigger',
		icon: {
			light: 'file:../../icons/affiliateTracking.svg',
			dark: 'file:../../icons/affiliateTracking.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["event"] }}',
		description:
			"Starts a workflow when a watched promoter's results or balances change (polls the promoter endpoints)",
		defaults: { name: 'Affiliate Tracking Trigger' },
		polling: true,
		inputs: [],
		outputs: [MAIN_CONNECTION],
		credentials: [{ name: CREDENTIAL_NAME, required: true }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Promoter Balance Changed',
						value: 'promoterBalanceChanged',
						description: 'A balance of a watched promoter changed, in any currency',
					},
					{
						name: 'Promoter Results Changed',
						value: 'promoterResultsChanged',
						description:
							'Clicks, signups, paying customers or rewards of a watched promoter went up',
					},
				],
				default: 'promoterResultsChanged',
				description:
					'Every item carries a change_id, the same when a change is delivered again (after a restart of n8n): a Remove Duplicates node on change_id keeps one',
			},
			watchListField,
			optionsCollection([
				concurrencyOption,
				figuresOption,
				maxPromotersOption,
				maxRetriesOption,
				retryDelayOption,
				timeoutOption,
			]),
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event') as TriggerEvent;
		const options = readOptionsCollection(this);
		const maxPromoters = Math.min(
			MAX_PROMOTERS_LIMIT,
			Math.max(1, Math.floor(Number(options.maxPromoters ?? DEFAULT_MAX_PROMOTERS))),
		);
		const userIds = readWatchList(this, maxPromoters);
		const { pacing, request } = parseRunOptions(options);
		const readings = await readFigures(this, event, userIds, pacing, request);
		const failures = readings.filter(
			(reading): reading is Extract<Reading, { error: unknown }> => 'error' in reading,
		);

		if (this.getMode() === 'manual') {
			// Fetch Test Event: the current figures, shaped as events, and nothing remembered.
			if (failures.length > 0) throw failuresError(this, failures, userIds.length);
			const items = readings.flatMap((reading) =>
				'figures' in reading
					? event === 'promoterResultsChanged'
						? [resultsItem(reading.userId, reading.figures as IDataObject, undefined, undefined)]
						: balanceItems(
								reading.userId,
								balanceFiguresOf(reading.figures as IDataObject[]),
								undefined,
								undefined,
								true,
							)
					: [],
			);
			return [this.helpers.returnJsonArray(items)];
		}

		const state = this.getWorkflowStaticData('node') as PollState;
		// When the stored figures were recorded: with them, it makes each item's change_id.
		const recordedAt = typeof state.recordedAt === 'number' ? state.recordedAt : undefined;
		if (state.event !== event) {
			// A new trigger, or another event: this poll only records.
			state.event = event;
			state.promoters = {};
		}
		const previousFigures = state.promoters ?? {};
		const nextFigures: PollState['promoters'] = {};
		const items: IDataObject[] = [];
		const counted = readCountedFigures(options);
		for (const reading of readings) {
			const previous = previousFigures[reading.userId];
			if (!('figures' in reading)) {
				// Not read this time: keep what was known.
				if (previous !== undefined) nextFigures[reading.userId] = previous;
				continue;
			}
			if (event === 'promoterResultsChanged') {
				const statistics = reading.figures as IDataObject;
				const current = resultFiguresOf(statistics);
				const before = previous as ResultFigures | undefined;
				if (before !== undefined && resultsWentUp(before, current, counted)) {
					items.push(resultsItem(reading.userId, statistics, before, recordedAt));
				}
				nextFigures[reading.userId] = current;
			} else {
				const current = balanceFiguresOf(reading.figures as IDataObject[]);
				if (previous !== undefined) {
					items.push(
						...balanceItems(reading.userId, current, previous as BalanceFigures, recordedAt),
					);
				}
				nextFigures[reading.userId] = current;
			}
		}
		// Promoters no longer watched are forgotten.
		state.promoters = nextFigures;
		// Later than the last record even if the clock went back: each state its own time.
		state.recordedAt = Math.max(Date.now(), (recordedAt ?? 0) + 1);

		if (failures.length > 0) this.__emitError(failuresError(this, failures, userIds.length));
		return items.length > 0 ? [this.helpers.returnJsonArray(items)] : null;
	}
}
