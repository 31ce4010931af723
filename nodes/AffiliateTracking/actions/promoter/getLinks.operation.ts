import type { INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { promoterReadProfile } from '../../../shared/helpers/promoterReads';
import { readPromoterList, splitIntoItemsProperty, userIdProperty } from './promoterFields';

export const profile = promoterReadProfile('Get Promoter Links');

export const properties: INodeProperties[] = [
	userIdProperty,
	{
		...splitIntoItemsProperty,
		description: `${splitIntoItemsProperty.description} A promoter without enabled links gives no item when on.`,
	},
];

export async function execute(run: ItemRun): Promise<OperationResult> {
	return await readPromoterList(run, 'links');
}
