import type { INodeProperties } from 'n8n-workflow';

import { MAX_CONCURRENCY } from './runOptions';

/*
 * How requests are sent and retried: options of the node's Options and of the trigger's (parsed
 * by runOptions.ts into the pacing and the transport's settings). The defaults are
 * DEFAULT_CONCURRENCY and DEFAULT_REQUEST_SETTINGS written out as literals, because n8n's lint
 * requires literal defaults (a test keeps them equal). Each collection lists them by name, which
 * n8n's lint does not follow into, so a test checks that its options stay alphabetised.
 */

export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
	default: 5,
	description: `How many requests may be under way at once (1 to ${MAX_CONCURRENCY}). Output order and item pairing are kept.`,
};

export const maxRetriesOption: INodeProperties = {
	displayName: 'Max Retries',
	name: 'maxRetries',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 10 },
	default: 2,
	description:
		'How often to retry after a network error, a timeout, HTTP 5xx or 429, or a server error the service allows to retry. Track operations and Exchange Code are re-sent only when the request cannot have reached the service.',
};

export const retryDelayOption: INodeProperties = {
	displayName: 'Retry Delay (Ms)',
	name: 'retryDelay',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 500,
	description:
		"Wait before the first retry, doubled for each further one (with jitter). A 429's Retry-After wins.",
};

export const timeoutOption: INodeProperties = {
	displayName: 'Timeout (Ms)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 30000,
	description: 'How long to wait for the service to answer a request',
};

/** Items per batch and a pause between batches: for the node only. */
const batchingOption: INodeProperties = {
	displayName: 'Batching',
	name: 'batching',
	placeholder: 'Add Batching',
	type: 'fixedCollection',
	typeOptions: { multipleValues: false },
	default: { batch: {} },
	options: [
		{
			displayName: 'Batching',
			name: 'batch',
			values: [
				{
					displayName: 'Items per Batch',
					name: 'batchSize',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 50,
					description: 'How many input items to process before pausing',
				},
				{
					displayName: 'Batch Interval (Ms)',
					name: 'batchInterval',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 1000,
					description: 'Pause between batches, in milliseconds',
				},
			],
		},
	],
};

/** A node's Options: the collection of its `options`, read once per run (runOptions.ts). */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/** The Options collection shared by every operation of the node. */
export const sharedOptions = optionsCollection([
	batchingOption,
	concurrencyOption,
	maxRetriesOption,
	retryDelayOption,
	timeoutOption,
]);
