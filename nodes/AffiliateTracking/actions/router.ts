import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { runForEachItem, type Operation } from '../../shared/helpers/itemLoop';
import { readRunOptions } from '../../shared/helpers/runOptions';
import * as authorization from './authorization';
import * as conversion from './conversion';
import * as promoter from './promoter';

/** The operations by resource and operation value, the values the node's selectors offer. */
export const OPERATIONS: Record<string, Record<string, Operation>> = {
	authorization: authorization.operations,
	conversion: conversion.operations,
	promoter: promoter.operations,
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
	return await runForEachItem(context, selected, readRunOptions(context));
}
