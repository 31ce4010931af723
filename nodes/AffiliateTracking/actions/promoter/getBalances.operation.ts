import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { promoterBalancesProfile } from '../../../shared/helpers/promoterReads';
import { readPromoterList, userIdProperty } from './promoterFields';

/** Shared with the trigger, which polls the same read. */
export const profile = promoterBalancesProfile;

const properties: INodeProperties[] = [
	userIdProperty,
	{
		displayName: 'Split Into Items',
		name: 'splitIntoItems',
		type: 'boolean',
		default: true,
		description:
			'Whether to output one item per entry. When off, one item holds the whole list, so every input item gives exactly one output item even when the list is empty.',
	},
];

const displayOptions = { show: { resource: ['promoter'], operation: ['getBalances'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(run: ItemRun): Promise<OperationResult> {
	return await readPromoterList(run, 'balances');
}
