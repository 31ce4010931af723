import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { promoterReadProfile, userIdField } from '../../../shared/helpers/promoterReads';
import { readPromoterList, splitIntoItemsField } from './promoterFields';

export const profile = promoterReadProfile('Get Promoter Links');

const displayOptions = { show: { resource: ['promoter'], operation: ['getLinks'] } };

export const description = updateDisplayOptions(displayOptions, [
	userIdField,
	{
		...splitIntoItemsField,
		description: `${splitIntoItemsField.description} A promoter without enabled links gives no item when on.`,
	},
]);

export async function execute(run: ItemRun): Promise<OperationResult> {
	return await readPromoterList(run, 'links');
}
