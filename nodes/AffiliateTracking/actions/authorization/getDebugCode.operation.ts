import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { readRelayBody, relayProfile, relayProperties, sourceProductKey } from './relayFields';

export const profile = relayProfile('Get Debug Code');

const properties: INodeProperties[] = [
	{
		displayName:
			'For testing the landing, code exchange and signup flow only; do not use in production flows',
		name: 'debugNotice',
		type: 'notice',
		default: '',
	},
	sourceProductKey.field,
	...relayProperties,
];

const displayOptions = { show: { resource: ['authorization'], operation: ['getDebugCode'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body = readRelayBody(params, sourceProductKey) as IDataObject;
	return (await request({
		method: 'POST',
		path: '/oauth/getDebugAuthCode',
		body,
	})) as IDataObject;
}
