import { updateDisplayOptions, type IDataObject } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
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

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body = readRelayBody(params, 'sourceProductKey') as IDataObject;
	return (await request({
		method: 'POST',
		path: '/oauth/getDebugAuthCode',
		body,
	})) as IDataObject;
}
