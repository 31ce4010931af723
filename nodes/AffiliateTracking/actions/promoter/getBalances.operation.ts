import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { promoterBalancesProfile, userIdField } from '../../../shared/helpers/promoterReads';
import { readPromoterList, splitIntoItemsField } from './promoterFields';

/** Shared with the trigger, which polls the same read. */
export const profile = promoterBalancesProfile;

const displayOptions = { show: { resource: ['promoter'], operation: ['getBalances'] } };

export const description = updateDisplayOptions(displayOptions, [userIdField, splitIntoItemsField]);

export async function execute(run: ItemRun): Promise<OperationResult> {
	return await readPromoterList(run, 'balances');
}
