import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { apiRequest, redirectRequest, type ApiRequest } from '../transport';
import { ERROR_CONTEXT, mayHaveBeenRecorded } from '../transport/errors';
import type { OperationProfile } from '../transport/operationProfile';
import type { RequestSettings } from '../transport/requestSettings';
import type { RunOptions } from './runOptions';
import { describeStoppedRun, groupByState, formatRanges, type ItemState } from './stopReport';
import { ParameterReader } from './validation';

export type NodeError = NodeApiError | NodeOperationError;

/** What an operation returns for one item: one object, or a list that becomes one item each. */
export type OperationResult = IDataObject | IDataObject[];

/**
 * What an operation's execute gets for one item: its parameters, and requests sent in the name
 * of the operation for this item, so that the operation never repeats its profile.
 */
export interface ItemRun {
	context: IExecuteFunctions;
	itemIndex: number;
	params: ParameterReader;
	/** The envelope's data of a call. */
	request(call: ApiRequest): Promise<unknown>;
	/** The Location of a redirecting call. */
	redirect(call: ApiRequest): Promise<string>;
}

/** One operation of the node: its profile, and what it does for one item. */
export interface Operation {
	profile: OperationProfile;
	execute(item: ItemRun): Promise<OperationResult>;
}

function itemRun(
	context: IExecuteFunctions,
	operation: Operation,
	itemIndex: number,
	settings: RequestSettings,
): ItemRun {
	const call = (request: ApiRequest) => ({ ...request, operation: operation.profile });
	return {
		context,
		itemIndex,
		params: new ParameterReader(context, itemIndex),
		request: async (request) => await apiRequest(context, call(request), itemIndex, settings),
		redirect: async (request) => await redirectRequest(context, call(request), itemIndex, settings),
	};
}

/** Any failure of an item as n8n's node error, carrying the item's index. */
export function asNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/**
 * The error item of "Continue On Fail": the server's message, the envelope code (when there is
 * one), the remedy and `outcomeUnknown` for a write that may have been recorded, paired with its
 * input item. On the error output everything goes under the
 * one key `error`: n8n 1.x and 2.x before 2.34.4 route an item there only when its json is
 * `{ error }` or `{ error, message }` (later releases also accept `details`), and n8n adds the
 * input item's fields beside it.
 */
function errorItem(
	error: NodeError,
	itemIndex: number,
	toErrorOutput: boolean,
): INodeExecutionData {
	const details: IDataObject = {};
	const code = error.context[ERROR_CONTEXT.envelopeCode];
	if (code !== undefined) details.code = code;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	if (error.description) details.description = error.description;
	// A write whose answer was lost: a workflow must neither resend it nor treat it as refused.
	if (mayHaveBeenRecorded(error)) details.outcomeUnknown = true;
	const json: IDataObject = toErrorOutput
		? { error: { message: error.message, ...details } }
		: { error: error.message, ...details };
	return { json, pairedItem: { item: itemIndex } };
}

/** A key parameter's value for the stop report; an expression that fails reads as unknown. */
function readKey(
	context: IExecuteFunctions,
	profile: OperationProfile,
	itemIndex: number,
): string | undefined {
	try {
		const value = context.getNodeParameter(profile.key.name, itemIndex, '');
		return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The first failure of a stopped run, its description extended with what became of every item;
 * `context.itemStates` holds the same as index ranges, for error workflows.
 */
function stoppedRunError(
	context: IExecuteFunctions,
	profile: OperationProfile,
	states: ItemState[],
	failures: Map<number, NodeError>,
): NodeError {
	const [[stoppedAt, first]] = failures;
	const report = describeStoppedRun({
		states,
		profile,
		stoppedAt,
		keyOf: (itemIndex) => readKey(context, profile, itemIndex),
		messageOf: (itemIndex) => failures.get(itemIndex)?.message,
	});
	first.description = first.description ? `${first.description}\n\n${report}` : report;
	const groups = groupByState(states);
	first.context.itemStates = {
		succeeded: formatRanges(groups.succeeded),
		failed: formatRanges(groups.failed),
		uncertain: formatRanges(groups.uncertain),
		notSent: formatRanges(groups.notSent),
	};
	return first;
}

/**
 * Runs `operation` once per input item, paced and sent as the node's Options say (read once, by
 * the caller), and returns every item's outcome in input order: its results, or (under Continue
 * On Fail) its error item. Without Continue On Fail the first failure stops the run: no further
 * item starts, those under way are awaited, and the first failure is thrown with an account of
 * every item.
 */
export async function runForEachItem(
	context: IExecuteFunctions,
	operation: Operation,
	{ pacing, request }: RunOptions,
): Promise<INodeExecutionData[][]> {
	const itemCount = context.getInputData().length;
	const outcomes: INodeExecutionData[][] = new Array(itemCount);
	const states: ItemState[] = new Array<ItemState>(itemCount).fill('notSent');
	const continueOnFail = context.continueOnFail();
	const toErrorOutput = context.getNode().onError === 'continueErrorOutput';
	const batchSize = Math.max(1, pacing.batchSize ?? itemCount);
	/** Failures of a stopping run, in the order they happened. */
	const failures = new Map<number, NodeError>();

	const runItem = async (itemIndex: number): Promise<void> => {
		try {
			const result = await operation.execute(itemRun(context, operation, itemIndex, request));
			outcomes[itemIndex] = (Array.isArray(result) ? result : [result]).map((json) => ({
				json,
				pairedItem: { item: itemIndex },
			}));
			states[itemIndex] = 'succeeded';
		} catch (error) {
			const nodeError = asNodeError(context, error, itemIndex);
			states[itemIndex] = mayHaveBeenRecorded(nodeError) ? 'uncertain' : 'failed';
			if (continueOnFail) outcomes[itemIndex] = [errorItem(nodeError, itemIndex, toErrorOutput)];
			else failures.set(itemIndex, nodeError);
		}
	};

	for (let start = 0; start < itemCount && failures.size === 0; start += batchSize) {
		if (start > 0 && pacing.batchIntervalMs > 0) await sleep(pacing.batchIntervalMs);
		const end = Math.min(itemCount, start + batchSize);
		let nextIndex = start;
		const worker = async (): Promise<void> => {
			while (failures.size === 0 && nextIndex < end) await runItem(nextIndex++);
		};
		const workers = Math.max(1, Math.min(pacing.concurrency, end - start));
		await Promise.all(Array.from({ length: workers }, worker));
	}
	if (failures.size > 0) {
		// A single item's error says all there is; an account of one item would only repeat it.
		const [[, first]] = failures;
		throw itemCount === 1 ? first : stoppedRunError(context, operation.profile, states, failures);
	}
	return [outcomes.flat()];
}
