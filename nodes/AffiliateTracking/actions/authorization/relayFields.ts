import type { INodeProperties } from 'n8n-workflow';

import type { ParameterReader } from '../../../shared/helpers/validation';
import type { OperationProfile } from '../../../shared/transport/operationProfile';

/** A relay of the user named by User ID: a repeat only issues a fresh code. */
export function relayProfile(action: string): OperationProfile {
	return { action, kind: 'idempotentWrite', key: { label: 'User ID', parameter: 'userId' } };
}

/** The promoting product of Authorize and Authorize and Get Redirect. */
export const productKeyProperty: INodeProperties = {
	displayName: 'Product Key',
	name: 'productKey',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'prd_…',
	description:
		'Key of the promoting product: the product that the API key of the credential belongs to',
};

/** The promoting product of Get Debug Code. */
export const sourceProductKeyProperty: INodeProperties = {
	displayName: 'Source Product Key',
	name: 'sourceProductKey',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'prd_…',
	description: 'Key of the promoting product whose user is simulated',
};

/**
 * The fields every relay (Authorize, Authorize and Get Redirect, Get Debug Code) shows after its
 * promoting product: which user goes to which product.
 */
export const relayProperties: INodeProperties[] = [
	{
		displayName: 'Target Product Key',
		name: 'targetProductKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'prd_…',
		description: 'Key of the promoted product the user is sent to',
	},
	{
		displayName: 'User ID',
		name: 'userId',
		type: 'string',
		required: true,
		default: '',
		description:
			'Stable ID of the user in the promoting product (never shown to the promoted product)',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Extra User Info',
				name: 'extra',
				type: 'json',
				default: '{}',
				description:
					'JSON object with user details the promoted product can use to complete the profile, for example {"name": "Ada", "locale": "en"}',
			},
		],
	},
];

/** The API body of a relay call, checked before sending. */
export function readRelayBody(
	params: ParameterReader,
	sourceField: 'productKey' | 'sourceProductKey',
): Record<string, unknown> {
	const body: Record<string, unknown> = {
		[sourceField === 'productKey' ? 'product_key' : 'source_product_key']: params.requiredString(
			sourceField,
			sourceField === 'productKey' ? 'Product Key' : 'Source Product Key',
		),
		target_product_key: params.requiredString('targetProductKey', 'Target Product Key'),
		user_id: params.requiredString('userId', 'User ID'),
	};
	const extra = params.jsonObject('additionalFields.extra', 'Extra User Info');
	if (extra !== undefined) body.extra = extra;
	return body;
}
