import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { runForEachItem, type OperationResult, type Pacing } from '../helpers/itemLoop';
import * as authorization from './authorization';
import * as conversion from './conversion';
import * as promoter from './promoter';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './requestOptions';

interface Operation {
	execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult>;
}

const OPERATIONS: Record<string, Record<string, Operation>> = {
	authorization: {
		authorize: authorization.authorize,
		authorizeAndRedirect: authorization.authorizeAndRedirect,
		exchangeCode: authorization.exchangeCode,
		getDebugCode: authorization.getDebugCode,
	},
	conversion: {
		refund: conversion.refund,
		trackEvent: conversion.trackEvent,
		trackPurchase: conversion.trackPurchase,
		trackSignup: conversion.trackSignup,
	},
	promoter: {
		get: promoter.get,
		getBalances: promoter.getBalances,
		getLinks: promoter.getLinks,
		getStatistics: promoter.getStatistics,
		login: promoter.login,
	},
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const selected = OPERATIONS[resource]?.[operation];
	if (selected === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
		);
	}
	return await runForEachItem(
		this,
		async (itemIndex) => await selected.execute.call(this, itemIndex),
		readPacing(this.getNodeParameter('options', 0, {}) as IDataObject),
	);
}

function readPacing(options: IDataObject): Pacing {
	const batch = (options.batching as IDataObject | undefined)?.batch as IDataObject | undefined;
	const concurrency = Number(options.concurrency ?? DEFAULT_CONCURRENCY);
	return {
		concurrency: Number.isFinite(concurrency)
			? Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(concurrency)))
			: DEFAULT_CONCURRENCY,
		batchSize: batch?.batchSize === undefined ? undefined : Math.max(1, Number(batch.batchSize)),
		batchIntervalMs: Math.max(0, Number(batch?.batchInterval ?? 0)),
	};
}
