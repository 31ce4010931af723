import { updateDisplayOptions, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { OperationResult } from '../../helpers/itemLoop';
import type { OperationProfile } from '../../helpers/operationProfile';
import { ParameterReader } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { promoterPath, splitIntoItemsProperty, userIdProperty } from './promoterFields';

export const profile: OperationProfile = {
	action: 'Get Promoter Balances',
	kind: 'read',
	key: { label: 'User ID', parameter: 'userId' },
};

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
			operation: profile,
		},
		itemIndex,
	)) as IDataObject[];
	return params.raw('splitIntoItems', true) === false ? { balances } : balances;
}
