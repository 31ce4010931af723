import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import {
	extraBodyFieldsOption,
	invitedUserIdProperty,
	withExtraBodyFields,
} from './conversionFields';

export const profile: OperationProfile = {
	action: 'Track Custom Event',
	kind: 'write',
	key: { label: 'Invited User ID', parameter: 'invitedUserId' },
};

const properties: INodeProperties[] = [
	{
		displayName: 'Event Name',
		name: 'eventName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'trial_started',
		description:
			'Your event name. Use Track Signup and Track Purchase for signup and purchase events.',
	},
	invitedUserIdProperty,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Conversion Value',
				name: 'conversionValue',
				type: 'number',
				default: 0,
				typeOptions: { minValue: 0, numberPrecision: 2 },
				description: 'A positive value makes the event a paid conversion (refundable)',
			},
			extraBodyFieldsOption,
			{
				displayName: 'Transaction ID',
				name: 'transactionId',
				type: 'string',
				default: '',
				description:
					'Your order or payment ID, at most 255 characters; needed to refund a paid event',
			},
		],
	},
];

const displayOptions = { show: { resource: ['conversion'], operation: ['trackEvent'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const eventName = params.requiredString('eventName', 'Event Name');
	if (eventName === 'signup') {
		throw params.fail(
			'Event Name',
			'must not be "signup": use the Track Signup operation, which sends the invite code',
		);
	}
	const body: IDataObject = {
		event_name: eventName,
		invited_user_id: params.requiredString('invitedUserId', 'Invited User ID'),
	};
	const transactionId = params.optionalString('additionalFields.transactionId', 'Transaction ID');
	if (transactionId !== undefined) body.transaction_id = transactionId;
	const value = params.amount('additionalFields.conversionValue', 'Conversion Value', false);
	if (value !== undefined) body.conversion_value = value;
	return (await request({
		method: 'POST',
		path: '/track/conversion',
		body: withExtraBodyFields(params, body),
	})) as IDataObject;
}
