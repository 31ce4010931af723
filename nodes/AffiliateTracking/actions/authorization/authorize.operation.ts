import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { readRelayBody, relayProfile, relayProperties } from './relayFields';

export const profile = relayProfile('Authorize');

export const properties: INodeProperties[] = relayProperties('productKey');

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body = readRelayBody(params, 'productKey') as IDataObject;
	return (await request({ method: 'POST', path: '/oauth/authorize', body })) as IDataObject;
}
