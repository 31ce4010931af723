/**
 * What the trigger compares between two polls, and the items a change gives. Pure functions:
 * the poll reads the figures, these decide.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

export type TriggerEvent = 'promoterResultsChanged' | 'promoterBalanceChanged';

/** The statistics figures that can count as new results, as the API names them. */
export const RESULT_FIGURES = [
	'clicks',
	'signups',
	'paying_customers',
	'rewards_accrued',
	'rewards_paid',
] as const;
export type ResultFigure = (typeof RESULT_FIGURES)[number];

/** Counts are integers; rewards are amounts written with two decimals ("12.50"). */
const AMOUNT_FIGURES: ReadonlySet<ResultFigure> = new Set(['rewards_accrued', 'rewards_paid']);

export type ResultFigures = Record<ResultFigure, number | string>;

export interface BalanceAmounts {
	available: string;
	pending: string;
	withdrawing: string;
}

/** Balances by currency. */
export type BalanceFigures = Record<string, BalanceAmounts>;

/**
 * What the trigger keeps in the workflow's static data: the event it watched, the last figures
 * of each watched promoter (bounded by the watch list) and when the last poll recorded them.
 */
export interface PollState extends IDataObject {
	event?: TriggerEvent;
	promoters?: Record<string, ResultFigures | BalanceFigures>;
	/** Epoch milliseconds, later at every poll; part of every change ID (see `changeId`). */
	recordedAt?: number;
}

/** Hex digits of a change ID: 64 bits of SHA-256. */
export const CHANGE_ID_LENGTH = 16;

/** Amounts compared in cents, so that "12.50" and "12.5" are the same. */
function cents(amount: number | string): number {
	return Math.round(Number(amount) * 100);
}

function increaseOf(figure: ResultFigure, before: number | string, after: number | string) {
	return AMOUNT_FIGURES.has(figure)
		? ((cents(after) - cents(before)) / 100).toFixed(2)
		: Number(after) - Number(before);
}

function resultNumbers(figures: ResultFigures): number[] {
	return RESULT_FIGURES.map((figure) =>
		AMOUNT_FIGURES.has(figure) ? cents(figures[figure]) : Number(figures[figure]),
	);
}

function balanceNumbers(amounts: BalanceAmounts): number[] {
	return [cents(amounts.available), cents(amounts.pending), cents(amounts.withdrawing)];
}

/**
 * The `change_id` of an item: the same for a repeat of the same change (the same stored state
 * and the same new figures, as when n8n runs a poll again with static data it did not save),
 * different for any other change. A hash of the event, the user ID, the currency, the figures
 * before (the stored ones, `null` when none) and after, canonical (counts as numbers, amounts in
 * cents), and when the figures before were recorded, so that figures returning to earlier values
 * and changing the same way again make a new ID.
 */
export function changeId<Figures>(
	change: {
		event: TriggerEvent;
		userId: string;
		currency: string | null;
		recordedAt: number | undefined;
	},
	numbersOf: (figures: Figures) => number[],
	before: Figures | null,
	after: Figures,
): string {
	const canonical = JSON.stringify([
		change.event,
		change.userId,
		change.currency,
		change.recordedAt ?? null,
		before === null ? null : numbersOf(before),
		numbersOf(after),
	]);
	return createHash('sha256').update(canonical).digest('hex').slice(0, CHANGE_ID_LENGTH);
}

/** The figures kept of a statistics answer. */
export function resultFiguresOf(statistics: IDataObject): ResultFigures {
	return Object.fromEntries(
		RESULT_FIGURES.map((figure) => [figure, statistics[figure] as number | string]),
	) as ResultFigures;
}

/**
 * The event item of a promoter's results: the new totals and the increase of each figure
 * (zero where nothing changed, negative where a figure went down).
 */
export function resultsItem(
	userId: string,
	statistics: IDataObject,
	previous: ResultFigures | undefined,
	recordedAt: number | undefined,
): IDataObject {
	const current = resultFiguresOf(statistics);
	const increase = Object.fromEntries(
		RESULT_FIGURES.map((figure) => [
			figure,
			increaseOf(figure, previous?.[figure] ?? current[figure], current[figure]),
		]),
	);
	const currency = typeof statistics.currency === 'string' ? statistics.currency : null;
	const change_id = changeId(
		{ event: 'promoterResultsChanged', userId, currency, recordedAt },
		resultNumbers,
		previous ?? null,
		current,
	);
	return { change_id, user_id: userId, ...current, currency, increase };
}

/** Whether any counted figure went up (a figure going down is no new result). */
export function resultsWentUp(
	previous: ResultFigures,
	current: ResultFigures,
	counted: readonly ResultFigure[],
): boolean {
	return counted.some((figure) =>
		AMOUNT_FIGURES.has(figure)
			? cents(current[figure]) > cents(previous[figure])
			: Number(current[figure]) > Number(previous[figure]),
	);
}

/** The figures kept of a balances answer: the amounts by currency. */
export function balanceFiguresOf(balances: IDataObject[]): BalanceFigures {
	return Object.fromEntries(
		balances.map((balance) => [
			String(balance.currency),
			{
				available: String(balance.available),
				pending: String(balance.pending),
				withdrawing: String(balance.withdrawing),
			},
		]),
	);
}

function sameAmounts(a: BalanceAmounts, b: BalanceAmounts): boolean {
	return (
		cents(a.available) === cents(b.available) &&
		cents(a.pending) === cents(b.pending) &&
		cents(a.withdrawing) === cents(b.withdrawing)
	);
}

/**
 * One item per currency whose amounts differ from the previous poll (a currency seen for the
 * first time has `old: null`); with `everyCurrency`, one item per currency whatever changed.
 */
export function balanceItems(
	userId: string,
	current: BalanceFigures,
	previous: BalanceFigures | undefined,
	recordedAt: number | undefined,
	everyCurrency = false,
): IDataObject[] {
	return Object.entries(current)
		.filter(
			([currency, amounts]) =>
				everyCurrency ||
				previous?.[currency] === undefined ||
				!sameAmounts(previous[currency], amounts),
		)
		.map(([currency, amounts]) => {
			const old = previous?.[currency] ?? null;
			const change_id = changeId(
				{ event: 'promoterBalanceChanged', userId, currency, recordedAt },
				balanceNumbers,
				old,
				amounts,
			);
			return { change_id, user_id: userId, currency, old, new: amounts };
		});
}
