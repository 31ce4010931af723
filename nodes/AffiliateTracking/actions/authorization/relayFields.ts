import type { INodeProperties } from 'n8n-workflow';

import { userIdField } from '../../../shared/helpers/promoterReads';
import type { ParameterReader } from '../../../shared/helpers/validation';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { additionalFields } from '../fields';

/** A relay of the user named by User ID: a repeat only issues a fresh code. */
export function relayProfile(action: string): OperationProfile {
	return { action, kind: 'idempotentWrite', key: userIdField };
}

/** The promoting product of a relay: its field, and the field's name in the API body. */
export interface PromotingProduct {
	field: INodeProperties;
	bodyName: 'product_key' | 'source_product_key';
}

/** The promoting product of Authorize and Authorize and Get Redirect. */
export const productKey: PromotingProduct = {
	field: {
		displayName: 'Product Key',
		name: 'productKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'prd_…',
		description:
			'Key of the promoting product: the product that the API key of the credential belongs to',
	},
	bodyName: 'product_key',
};

/** The promoting product of Get Debug Code. */
export const sourceProductKey: PromotingProduct = {
	field: {
		displayName: 'Source Product Key',
		name: 'sourceProductKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'prd_…',
		description: 'Key of the promoting product whose user is simulated',
	},
	bodyName: 'source_product_key',
};

const targetProductKeyField: INodeProperties = {
	displayName: 'Target Product Key',
	name: 'targetProductKey',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'prd_…',
	description: 'Key of the promoted product the user is sent to',
};

const extraUserInfoOption: INodeProperties = {
	displayName: 'Extra User Info',
	name: 'extra',
	type: 'json',
	default: '{}',
	description:
		'JSON object with user details the promoted product can use to complete the profile, for example {"name": "Ada", "locale": "en"}',
};

const optionalFields = additionalFields([extraUserInfoOption]);

/**
 * The fields every relay (Authorize, Authorize and Get Redirect, Get Debug Code) shows after its
 * promoting product: which user goes to which product.
 */
export const relayProperties: INodeProperties[] = [
	targetProductKeyField,
	{
		...userIdField,
		description:
			'Stable ID of the user in the promoting product (never shown to the promoted product)',
	},
	optionalFields,
];

/** The API body of a relay call, checked before sending. */
export function readRelayBody(
	params: ParameterReader,
	source: PromotingProduct,
): Record<string, unknown> {
	const body: Record<string, unknown> = {
		[source.bodyName]: params.requiredString(source.field),
		target_product_key: params.requiredString(targetProductKeyField),
		user_id: params.requiredString(userIdField),
	};
	const extra = params.within(optionalFields).jsonObject(extraUserInfoOption);
	if (extra !== undefined) body.extra = extra;
	return body;
}
