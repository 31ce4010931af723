import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { ParameterReader } from '../../../shared/helpers/validation';
import { promoterReadProfile } from '../../../shared/helpers/promoterReads';
import { promoterPath, userIdProperty } from './promoterFields';

const EXPANDABLE = ['balances', 'links', 'statistics'] as const;

export const profile = promoterReadProfile('Get Promoter');

const properties: INodeProperties[] = [
	userIdProperty,
	{
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
	},
];

const displayOptions = { show: { resource: ['promoter'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, properties);

function readExpand(params: ParameterReader): string[] {
	const raw = params.raw('expand', []);
	const values =
		typeof raw === 'string'
			? raw.split(',')
			: Array.isArray(raw)
				? raw.map((value) => String(value))
				: null;
	if (values === null)
		throw params.fail('Include', 'must be a list of balances, links, statistics');
	const wanted = values.map((value) => value.trim()).filter((value) => value !== '');
	const unknown = wanted.find((value) => !(EXPANDABLE as readonly string[]).includes(value));
	if (unknown !== undefined) {
		throw params.fail('Include', `can only hold ${EXPANDABLE.join(', ')} (got "${unknown}")`);
	}
	return [...new Set(wanted)];
}

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const path = promoterPath(params);
	const expand = readExpand(params);
	return (await request({
		method: 'GET',
		path,
		query: { expand: expand.length > 0 ? expand.join(',') : undefined },
	})) as IDataObject;
}
