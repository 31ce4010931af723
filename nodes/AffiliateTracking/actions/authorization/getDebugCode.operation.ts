import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { readRelayBody, relayProfile, relayProperties } from './relayFields';

export const profile = relayProfile('Get Debug Code');

export const properties: INodeProperties[] = [
	{
		displayName:
			'For testing the landing, code exchange and signup flow only; do not use in production flows',
		name: 'debugNotice',
		type: 'notice',
		default: '',
	},
	...relayProperties('sourceProductKey'),
];

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body = readRelayBody(params, 'sourceProductKey') as IDataObject;
	return (await request({
		method: 'POST',
		path: '/oauth/getDebugAuthCode',
		body,
	})) as IDataObject;
}
