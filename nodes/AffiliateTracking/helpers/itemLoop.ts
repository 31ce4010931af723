import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

type NodeError = NodeApiError | NodeOperationError;

/** What an operation returns for one item: one object, or a list that becomes one item each. */
export type OperationResult = IDataObject | IDataObject[];

export type ItemHandler = (itemIndex: number) => Promise<OperationResult>;

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/**
 * The error item of "Continue On Fail": the server's message, the envelope code (when there is
 * one) and the remedy, paired with its input item. n8n routes an item to the error output only
 * when its json holds nothing but `error`, `message` and `details`, so there the code and the
 * remedy go under `details` (and n8n adds the input item's fields).
 */
function errorItem(
	error: NodeError,
	itemIndex: number,
	toErrorOutput: boolean,
): INodeExecutionData {
	const details: IDataObject = {};
	const code = error.context.envelopeCode;
	if (code !== undefined) details.code = code;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	if (error.description) details.description = error.description;
	const json: IDataObject = toErrorOutput
		? { error: error.message, details }
		: { error: error.message, ...details };
	return { json, pairedItem: { item: itemIndex } };
}

/** How items are paced: at most `concurrency` at once, optionally in batches with a pause. */
export interface Pacing {
	concurrency: number;
	batchSize?: number;
	batchIntervalMs: number;
}

/**
 * Runs `handler` once per input item under `pacing` and returns every item's outcome in input
 * order: its results, or (under Continue On Fail) its error item. Without Continue On Fail the
 * first failure stops the loop and is thrown.
 */
export async function runForEachItem(
	context: IExecuteFunctions,
	handler: ItemHandler,
	pacing: Pacing = { concurrency: 1, batchIntervalMs: 0 },
): Promise<INodeExecutionData[][]> {
	const itemCount = context.getInputData().length;
	const outcomes: INodeExecutionData[][] = new Array(itemCount);
	const continueOnFail = context.continueOnFail();
	const toErrorOutput = context.getNode().onError === 'continueErrorOutput';
	const batchSize = Math.max(1, pacing.batchSize ?? itemCount);
	let failure: NodeError | undefined;

	const runItem = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		try {
			const result = await handler(itemIndex);
			return (Array.isArray(result) ? result : [result]).map((json) => ({
				json,
				pairedItem: { item: itemIndex },
			}));
		} catch (error) {
			const nodeError = asNodeError(context, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			return [errorItem(nodeError, itemIndex, toErrorOutput)];
		}
	};

	for (let start = 0; start < itemCount && failure === undefined; start += batchSize) {
		if (start > 0 && pacing.batchIntervalMs > 0) await sleep(pacing.batchIntervalMs);
		const end = Math.min(itemCount, start + batchSize);
		let nextIndex = start;
		const worker = async (): Promise<void> => {
			while (failure === undefined && nextIndex < end) {
				const itemIndex = nextIndex++;
				try {
					outcomes[itemIndex] = await runItem(itemIndex);
				} catch (error) {
					failure ??= error as NodeError;
				}
			}
		};
		const workers = Math.max(1, Math.min(pacing.concurrency, end - start));
		await Promise.all(Array.from({ length: workers }, worker));
	}
	if (failure !== undefined) throw failure;
	return [outcomes.flat()];
}
