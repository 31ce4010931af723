import { updateDisplayOptions, type IDataObject } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { readRelayBody, relayProperties } from './relayFields';

export const profile: OperationProfile = {
	action: 'Authorize',
	kind: 'idempotentWrite',
	key: { label: 'User ID', parameter: 'userId' },
};

export const description = updateDisplayOptions(
	{ show: { resource: ['authorization'], operation: ['authorize'] } },
	relayProperties('productKey'),
);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body = readRelayBody(params, 'productKey') as IDataObject;
	return (await request({ method: 'POST', path: '/oauth/authorize', body })) as IDataObject;
}
