import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { ParameterReader } from '../../../shared/helpers/validation';
import { promoterReadProfile, userIdField } from '../../../shared/helpers/promoterReads';
import { readPromoterPath } from './promoterFields';

const EXPANDABLE = ['balances', 'links', 'statistics'] as const;

export const profile = promoterReadProfile('Get Promoter');

const includeField: INodeProperties = {
	displayName: 'Include',
	name: 'expand',
	type: 'multiOptions',
	options: [
		{ name: 'Balances', value: 'balances' },
		{ name: 'Links', value: 'links' },
		{
			name: 'Statistics',
			value: 'statistics',
			description: 'All-time statistics (no date range)',
		},
	],
	default: [],
	description: 'Related data to include in the promoter object',
};

const displayOptions = { show: { resource: ['promoter'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, [userIdField, includeField]);

function readExpand(params: ParameterReader): string[] {
	const raw = params.raw(includeField);
	const values =
		typeof raw === 'string'
			? raw.split(',')
			: Array.isArray(raw)
				? raw.map((value) => String(value))
				: null;
	if (values === null)
		throw params.fail(includeField, 'must be a list of balances, links, statistics');
	const wanted = values.map((value) => value.trim()).filter((value) => value !== '');
	const unknown = wanted.find((value) => !(EXPANDABLE as readonly string[]).includes(value));
	if (unknown !== undefined) {
		throw params.fail(includeField, `can only hold ${EXPANDABLE.join(', ')} (got "${unknown}")`);
	}
	return [...new Set(wanted)];
}

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const path = readPromoterPath(params);
	const expand = readExpand(params);
	return (await request({
		method: 'GET',
		path,
		query: { expand: expand.length > 0 ? expand.join(',') : undefined },
	})) as IDataObject;
}
