import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { runForEachItem, type OperationResult } from '../helpers/itemLoop';
import type { OperationProfile } from '../helpers/operationProfile';
import { readRunOptions } from '../helpers/runOptions';
import * as authorization from './authorization';
import * as conversion from './conversion';
import * as promoter from './promoter';

interface Operation {
	profile: OperationProfile;
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
		selected.profile,
		readRunOptions(this).pacing,
	);
}
