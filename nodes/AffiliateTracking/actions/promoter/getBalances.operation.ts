import { updateDisplayOptions, type IDataObject } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { promoterBalancesProfile } from '../../../shared/helpers/promoterReads';
import { promoterPath, splitIntoItemsProperty, userIdProperty } from './promoterFields';

/** Shared with the trigger, which polls the same read. */
export const profile = promoterBalancesProfile;

export const description = updateDisplayOptions(
	{ show: { resource: ['promoter'], operation: ['getBalances'] } },
	[userIdProperty, splitIntoItemsProperty],
);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const balances = (await request({
		method: 'GET',
		path: promoterPath(params, '/balances'),
	})) as IDataObject[];
	return params.raw('splitIntoItems', true) === false ? { balances } : balances;
}
