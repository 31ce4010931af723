import { updateDisplayOptions, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { OperationResult } from '../../helpers/itemLoop';
import type { OperationProfile } from '../../helpers/operationProfile';
import { ParameterReader } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { readRelayBody, relayProperties } from './relayFields';

export const profile: OperationProfile = {
	action: 'Get Debug Code',
	kind: 'idempotentWrite',
	key: { label: 'User ID', parameter: 'userId' },
};

export const description = updateDisplayOptions(
	{ show: { resource: ['authorization'], operation: ['getDebugCode'] } },
	[
		{
			displayName:
				'For testing the landing, code exchange and signup flow only; do not use in production flows',
			name: 'debugNotice',
			type: 'notice',
			default: '',
		},
		...relayProperties('sourceProductKey'),
	],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const body = readRelayBody(
		new ParameterReader(this, itemIndex),
		'sourceProductKey',
	) as IDataObject;
	return (await apiRequest.call(
		this,
		{
			method: 'POST',
			path: '/oauth/getDebugAuthCode',
			body,
			operation: profile,
		},
		itemIndex,
	)) as IDataObject;
}
