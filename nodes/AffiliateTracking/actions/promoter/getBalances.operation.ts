import { updateDisplayOptions, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { OperationResult } from '../../helpers/itemLoop';
import { ParameterReader } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { promoterPath, splitIntoItemsProperty, userIdProperty } from './promoterFields';

export const description = updateDisplayOptions(
	{ show: { resource: ['promoter'], operation: ['getBalances'] } },
	[userIdProperty, splitIntoItemsProperty],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const params = new ParameterReader(this, itemIndex);
	const balances = (await apiRequest.call(
		this,
		{
			method: 'GET',
			path: promoterPath(params, '/balances'),
			retrySafe: true,
			action: 'Get Promoter Balances',
		},
		itemIndex,
	)) as IDataObject[];
	return params.raw('splitIntoItems', true) === false ? { balances } : balances;
}
