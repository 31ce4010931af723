import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';

const codeField: INodeProperties = {
	displayName: 'Authorization Code',
	name: 'code',
	type: 'string',
	required: true,
	default: '',
	placeholder: '={{ $json.query.x_auth_code }}',
	description:
		'The x_auth_code query parameter of the landing URL. It can be exchanged once, by the promoted product, before it expires.',
};

/** A code is redeemed once: a blind re-send after a lost answer would fail as used. */
export const profile: OperationProfile = {
	action: 'Exchange Code',
	kind: 'write',
	key: codeField,
};

const displayOptions = { show: { resource: ['authorization'], operation: ['exchangeCode'] } };

export const description = updateDisplayOptions(displayOptions, [codeField]);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	return (await request({
		method: 'POST',
		path: '/oauth/getUserByAuthorizationCode',
		body: { code: params.requiredString(codeField) },
	})) as IDataObject;
}
