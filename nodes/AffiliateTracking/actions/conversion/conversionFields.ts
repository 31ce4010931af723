import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ParameterReader } from '../../../shared/helpers/validation';

export const invitedUserIdField: INodeProperties = {
	displayName: 'Invited User ID',
	name: 'invitedUserId',
	type: 'string',
	required: true,
	default: '',
	description: 'Stable ID of the user in your (the promoted) product',
};

/**
 * The purchase's transaction, by which Refund finds it: optional for a custom event, spread as
 * required by Track Purchase and Refund.
 */
export const transactionIdField: INodeProperties = {
	displayName: 'Transaction ID',
	name: 'transactionId',
	type: 'string',
	default: '',
	description:
		'Your order or payment ID, at most 255 characters. Refund finds the purchase by it, so keep it unique.',
};

/** The value of a conversion: optional for a custom event, required (and spread so) for a purchase. */
export const conversionValueField: INodeProperties = {
	displayName: 'Conversion Value',
	name: 'conversionValue',
	type: 'number',
	default: 0,
	typeOptions: { minValue: 0, numberPrecision: 2 },
	description: 'A positive value makes the event a paid conversion (refundable)',
};

export const extraBodyFieldsOption: INodeProperties = {
	displayName: 'Extra Body Fields',
	name: 'extraBodyFields',
	type: 'json',
	default: '{}',
	description:
		'JSON object of further top-level fields sent with the event, for example {"currency": "USD"}. Fields set by other parameters cannot be overridden here.',
};

/**
 * Adds the user's extra body fields (read by `optional`, the reader of the operation's Additional
 * Fields), refusing any that would override a named parameter.
 */
export function withExtraBodyFields(optional: ParameterReader, body: IDataObject): IDataObject {
	const extra = optional.jsonObject(extraBodyFieldsOption);
	if (extra === undefined) return body;
	const clash = Object.keys(extra).find((name) => name in body || name === 'event_name');
	if (clash !== undefined) {
		throw optional.fail(
			extraBodyFieldsOption,
			`must not contain "${clash}": set it with its own parameter`,
		);
	}
	return { ...body, ...extra };
}
