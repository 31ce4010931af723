import type { IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from '../transport/requestSettings';

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

/** A number the user set, or the fallback when it is missing, not a number or negative. */
function nonNegative(value: unknown, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
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
		request: {
			maxRetries: Math.floor(nonNegative(options.maxRetries, DEFAULT_REQUEST_SETTINGS.maxRetries)),
			timeoutMs: nonNegative(options.timeout, DEFAULT_REQUEST_SETTINGS.timeoutMs),
			retryDelayMs: nonNegative(options.retryDelay, DEFAULT_REQUEST_SETTINGS.retryDelayMs),
		},
	};
}

/**
 * The Options collection of this node execution (read from the first item: it is not per item)
 * or of this poll, read once per execution or poll.
 */
export function readOptionsCollection(context: IExecuteFunctions | IPollFunctions): IDataObject {
	// A node run reads parameters per item; a poll has no items.
	const options =
		'getInputData' in context
			? context.getNodeParameter('options', 0, {})
			: context.getNodeParameter('options', {});
	return options as IDataObject;
}

/** The Options of this node execution or of this poll, parsed. */
export function readRunOptions(context: IExecuteFunctions | IPollFunctions): RunOptions {
	return parseRunOptions(readOptionsCollection(context));
}
