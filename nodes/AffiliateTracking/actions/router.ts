import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { runForEachItem, type Operation } from '../../shared/helpers/itemLoop';
import { readRunOptions } from '../../shared/helpers/runOptions';
import * as authorization from './authorization';
import * as conversion from './conversion';
import * as promoter from './promoter';

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

export async function router(context: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = context.getNodeParameter('resource', 0) as string;
	const operation = context.getNodeParameter('operation', 0) as string;
	const selected = OPERATIONS[resource]?.[operation];
	if (selected === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
		);
	}
	return await runForEachItem(context, selected, readRunOptions(context).pacing);
}
