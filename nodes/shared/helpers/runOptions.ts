import type { IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import {
	nonNegative,
	parseRequestSettings,
	readOptionsCollection,
	type RequestSettings,
} from '../transport/requestSettings';

export const MAX_CONCURRENCY = 50;
export const DEFAULT_CONCURRENCY = 5;

/** How items are paced: at most `concurrency` at once, optionally in batches with a pause. */
export interface Pacing {
	concurrency: number;
	batchSize?: number;
	batchIntervalMs: number;
}

/** The node's Options collection, parsed once: pacing for the item loop, settings for the transport. */
export interface RunOptions {
	pacing: Pacing;
	request: RequestSettings;
}

/**
 * Parses the Options collection. Values outside the fields' ranges (possible through expressions
 * or an imported workflow) fall back to the defaults or are clamped, never rejected.
 */
export function parseRunOptions(options: IDataObject): RunOptions {
	const batch = (options.batching as IDataObject | undefined)?.batch as IDataObject | undefined;
	const concurrency = nonNegative(options.concurrency, DEFAULT_CONCURRENCY);
	return {
		pacing: {
			concurrency: Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(concurrency))),
			batchSize:
				batch?.batchSize === undefined
					? undefined
					: Math.max(1, Math.floor(nonNegative(batch.batchSize, 1))),
			batchIntervalMs: nonNegative(batch?.batchInterval, 0),
		},
		request: parseRequestSettings(options),
	};
}

/** The Options of this node execution or of this poll, parsed. */
export function readRunOptions(context: IExecuteFunctions | IPollFunctions): RunOptions {
	return parseRunOptions(readOptionsCollection(context));
}
