import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { additionalFields } from '../fields';
import {
	conversionValueField,
	extraBodyFieldsOption,
	invitedUserIdField,
	transactionIdField,
	withExtraBodyFields,
} from './conversionFields';

export const profile: OperationProfile = {
	action: 'Track Custom Event',
	kind: 'write',
	key: invitedUserIdField,
};

const eventNameField: INodeProperties = {
	displayName: 'Event Name',
	name: 'eventName',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'trial_started',
	description:
		'Your event name. Use Track Signup and Track Purchase for signup and purchase events.',
};

const transactionIdOption: INodeProperties = {
	...transactionIdField,
	description: 'Your order or payment ID, at most 255 characters; needed to refund a paid event',
};

const optionalFields = additionalFields([
	conversionValueField,
	extraBodyFieldsOption,
	transactionIdOption,
]);

const properties: INodeProperties[] = [eventNameField, invitedUserIdField, optionalFields];

const displayOptions = { show: { resource: ['conversion'], operation: ['trackEvent'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const eventName = params.requiredString(eventNameField);
	if (eventName === 'signup') {
		throw params.fail(
			eventNameField,
			'must not be "signup": use the Track Signup operation, which sends the invite code',
		);
	}
	const body: IDataObject = {
		event_name: eventName,
		invited_user_id: params.requiredString(invitedUserIdField),
	};
	const optional = params.within(optionalFields);
	const transactionId = optional.optionalString(transactionIdOption);
	if (transactionId !== undefined) body.transaction_id = transactionId;
	const value = optional.amount(conversionValueField);
	if (value !== undefined) body.conversion_value = value;
	return (await request({
		method: 'POST',
		path: '/track/conversion',
		body: withExtraBodyFields(optional, body),
	})) as IDataObject;
}
