import type { INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { promoterBalancesProfile } from '../../../shared/helpers/promoterReads';
import { readPromoterList, splitIntoItemsProperty, userIdProperty } from './promoterFields';

/** Shared with the trigger, which polls the same read. */
export const profile = promoterBalancesProfile;

export const properties: INodeProperties[] = [userIdProperty, splitIntoItemsProperty];

export async function execute(run: ItemRun): Promise<OperationResult> {
	return await readPromoterList(run, 'balances');
}
