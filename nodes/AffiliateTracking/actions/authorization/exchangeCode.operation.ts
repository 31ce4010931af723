import { updateDisplayOptions, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { OperationResult } from '../../helpers/itemLoop';
import type { OperationProfile } from '../../helpers/operationProfile';
import { ParameterReader } from '../../helpers/validation';
import { apiRequest } from '../../transport';

/** A code is redeemed once: a blind re-send after a lost answer would fail as used. */
export const profile: OperationProfile = {
	action: 'Exchange Code',
	kind: 'write',
	key: { label: 'Authorization Code', parameter: 'code' },
};

export const description = updateDisplayOptions(
	{ show: { resource: ['authorization'], operation: ['exchangeCode'] } },
	[
		{
			displayName: 'Authorization Code',
			name: 'code',
			type: 'string',
			required: true,
			default: '',
			placeholder: '={{ $json.query.x_auth_code }}',
			description:
				'The x_auth_code query parameter of the landing URL. It can be exchanged once, by the promoted product, before it expires.',
		},
	],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const code = new ParameterReader(this, itemIndex).requiredString('code', 'Authorization Code');
	return (await apiRequest.call(
		this,
		{
			method: 'POST',
			path: '/oauth/getUserByAuthorizationCode',
			body: { code },
			operation: profile,
		},
		itemIndex,
	)) as IDataObject;
}
