import { updateDisplayOptions, type IDataObject } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import {
	extraBodyFieldsOption,
	invitedUserIdProperty,
	withExtraBodyFields,
} from './conversionFields';

export const profile: OperationProfile = {
	action: 'Track Purchase',
	kind: 'write',
	key: { label: 'Transaction ID', parameter: 'transactionId' },
};

export const description = updateDisplayOptions(
	{ show: { resource: ['conversion'], operation: ['trackPurchase'] } },
	[
		{
			...invitedUserIdProperty,
			description:
				'Stable ID of the paying user in your product; their signup must have been tracked first',
		},
		{
			displayName: 'Transaction ID',
			name: 'transactionId',
			type: 'string',
			required: true,
			default: '',
			description:
				'Your order or payment ID, at most 255 characters. Refund finds the purchase by it, so keep it unique.',
		},
		{
			displayName: 'Conversion Value',
			name: 'conversionValue',
			type: 'number',
			required: true,
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description: 'Amount paid, in the product currency',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [extraBodyFieldsOption],
		},
	],
);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body = withExtraBodyFields(params, {
		event_name: 'purchase',
		invited_user_id: params.requiredString('invitedUserId', 'Invited User ID'),
		transaction_id: params.requiredString('transactionId', 'Transaction ID'),
		conversion_value: params.amount('conversionValue', 'Conversion Value', true),
	});
	return (await request({ method: 'POST', path: '/track/conversion', body })) as IDataObject;
}
