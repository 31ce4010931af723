import type { INodeProperties } from 'n8n-workflow';

import type { ParameterReader } from '../../../shared/helpers/validation';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { additionalFields } from '../additionalFields';

/** A relay of the user named by User ID: a repeat only issues a fresh code. */
export function relayProfile(action: string): OperationProfile {
	return { action, kind: 'idempotentWrite', key: { label: 'User ID', parameter: 'userId' } };
}

/**
 * The fields shared by Authorize, Authorize and Get Redirect and Get Debug Code: who relays
 * which user to which product. `sourceField` is the promoting product's parameter name.
 */
export function relayProperties(sourceField: 'productKey' | 'sourceProductKey'): INodeProperties[] {
	return [
		{
			displayName: sourceField === 'productKey' ? 'Product Key' : 'Source Product Key',
			name: sourceField,
			type: 'string',
			required: true,
			default: '',
			placeholder: 'prd_…',
			description:
				sourceField === 'productKey'
					? 'Key of the promoting product: the product that the API key of the credential belongs to'
					: 'Key of the promoting product whose user is simulated',
		},
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
		additionalFields([
			{
				displayName: 'Extra User Info',
				name: 'extra',
				type: 'json',
				default: '{}',
				description:
					'JSON object with user details the promoted product can use to complete the profile, for example {"name": "Ada", "locale": "en"}',
			},
		]),
	];
}

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
