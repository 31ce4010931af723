import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ParameterReader } from '../../../shared/helpers/validation';

export const invitedUserIdProperty: INodeProperties = {
	displayName: 'Invited User ID',
	name: 'invitedUserId',
	type: 'string',
	required: true,
	default: '',
	description: 'Stable ID of the user in your (the promoted) product',
};

export const extraBodyFieldsOption: INodeProperties = {
	displayName: 'Extra Body Fields',
	name: 'extraBodyFields',
	type: 'json',
	default: '{}',
	description:
		'JSON object of further top-level fields sent with the event, for example {"currency": "USD"}. Fields set by other parameters cannot be overridden here.',
};

/** Adds the user's extra body fields, refusing any that would override a named parameter. */
export function withExtraBodyFields(params: ParameterReader, body: IDataObject): IDataObject {
	const extra = params.jsonObject('additionalFields.extraBodyFields', 'Extra Body Fields');
	if (extra === undefined) return body;
	const clash = Object.keys(extra).find((name) => name in body || name === 'event_name');
	if (clash !== undefined) {
		throw params.fail(
			'Extra Body Fields',
			`must not contain "${clash}": set it with its own parameter`,
		);
	}
	return { ...body, ...extra };
}
