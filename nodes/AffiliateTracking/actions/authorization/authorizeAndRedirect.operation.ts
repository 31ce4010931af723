import { updateDisplayOptions, type IExecuteFunctions } from 'n8n-workflow';

import type { OperationResult } from '../../helpers/itemLoop';
import type { OperationProfile } from '../../helpers/operationProfile';
import { ParameterReader } from '../../helpers/validation';
import { redirectRequest } from '../../transport';
import { readRelayBody, relayProperties } from './relayFields';

export const profile: OperationProfile = {
	action: 'Authorize and Get Redirect',
	kind: 'idempotentWrite',
	key: { label: 'User ID', parameter: 'userId' },
};

export const description = updateDisplayOptions(
	{ show: { resource: ['authorization'], operation: ['authorizeAndRedirect'] } },
	relayProperties('productKey'),
);

/** The 302 is not followed: its Location, and the two parameters it carries, are the output. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const { extra, ...fields } = readRelayBody(new ParameterReader(this, itemIndex), 'productKey');
	const query: Record<string, string> = {};
	for (const [name, value] of Object.entries(fields)) query[name] = String(value);
	if (extra !== undefined) query.extra = JSON.stringify(extra);
	const location = await redirectRequest.call(
		this,
		{
			method: 'GET',
			path: '/oauth/authorizeAndRedirect',
			query,
			operation: profile,
		},
		itemIndex,
	);
	let params: URLSearchParams | undefined;
	try {
		params = new URL(location).searchParams;
	} catch {
		params = undefined;
	}
	return {
		redirect_url: location,
		ps_ref: params?.get('ps_ref') ?? null,
		x_auth_code: params?.get('x_auth_code') ?? null,
	};
}
