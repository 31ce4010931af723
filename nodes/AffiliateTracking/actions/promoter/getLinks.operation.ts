import { updateDisplayOptions, type IDataObject } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { promoterPath, splitIntoItemsProperty, userIdProperty } from './promoterFields';

export const profile: OperationProfile = {
	action: 'Get Promoter Links',
	kind: 'read',
	key: { label: 'User ID', parameter: 'userId' },
};

export const description = updateDisplayOptions(
	{ show: { resource: ['promoter'], operation: ['getLinks'] } },
	[
		userIdProperty,
		{
			...splitIntoItemsProperty,
			description: `${splitIntoItemsProperty.description} A promoter without enabled links gives no item when on.`,
		},
	],
);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const links = (await request({
		method: 'GET',
		path: promoterPath(params, '/links'),
	})) as IDataObject[];
	return params.raw('splitIntoItems', true) === false ? { links } : links;
}
