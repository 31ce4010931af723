import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { promoterReadProfile } from '../../../shared/helpers/promoterReads';
import { readPromoterList, userIdProperty } from './promoterFields';

export const profile = promoterReadProfile('Get Promoter Links');

const properties: INodeProperties[] = [
	userIdProperty,
	{
		displayName: 'Split Into Items',
		name: 'splitIntoItems',
		type: 'boolean',
		default: true,
		description:
			'Whether to output one item per entry. When off, one item holds the whole list, so every input item gives exactly one output item even when the list is empty. A promoter without enabled links gives no item when on.',
	},
];

const displayOptions = { show: { resource: ['promoter'], operation: ['getLinks'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(run: ItemRun): Promise<OperationResult> {
	return await readPromoterList(run, 'links');
}
