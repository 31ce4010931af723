import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { productKey, readRelayBody, relayProfile, relayProperties } from './relayFields';

export const profile = relayProfile('Authorize and Get Redirect');

const properties: INodeProperties[] = [productKey.field, ...relayProperties];

const displayOptions = {
	show: { resource: ['authorization'], operation: ['authorizeAndRedirect'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

/** The 302 is not followed: its Location, and the two parameters it carries, are the output. */
export async function execute({ params, redirect }: ItemRun): Promise<OperationResult> {
	const { extra, ...fields } = readRelayBody(params, productKey);
	const query: Record<string, string> = {};
	for (const [name, value] of Object.entries(fields)) query[name] = String(value);
	if (extra !== undefined) query.extra = JSON.stringify(extra);
	const location = await redirect({
		method: 'GET',
		path: '/oauth/authorizeAndRedirect',
		query,
	});
	let landing: URLSearchParams | undefined;
	try {
		landing = new URL(location).searchParams;
	} catch {
		landing = undefined;
	}
	return {
		redirect_url: location,
		ps_ref: landing?.get('ps_ref') ?? null,
		x_auth_code: landing?.get('x_auth_code') ?? null,
	};
}
