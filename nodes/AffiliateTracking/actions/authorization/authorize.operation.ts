import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { productKey, readRelayBody, relayProfile, relayProperties } from './relayFields';

export const profile = relayProfile('Authorize');

const properties: INodeProperties[] = [productKey.field, ...relayProperties];

const displayOptions = { show: { resource: ['authorization'], operation: ['authorize'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body = readRelayBody(params, productKey) as IDataObject;
	return (await request({ method: 'POST', path: '/oauth/authorize', body })) as IDataObject;
}
