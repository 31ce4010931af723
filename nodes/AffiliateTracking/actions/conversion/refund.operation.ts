import { updateDisplayOptions, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { OperationResult } from '../../helpers/itemLoop';
import type { OperationProfile } from '../../helpers/operationProfile';
import { ParameterReader } from '../../helpers/validation';
import { apiRequest } from '../../transport';

export const profile: OperationProfile = {
	action: 'Refund',
	kind: 'idempotentWrite',
	key: { label: 'Transaction ID', parameter: 'transactionId' },
};

export const description = updateDisplayOptions(
	{ show: { resource: ['conversion'], operation: ['refund'] } },
	[
		{
			displayName:
				'Full refunds only: cancels the unpaid rewards of the purchase (paid ones are kept and counted). Repeating a refund is safe: it answers ALREADY_PROCESSED and changes nothing.',
			name: 'refundNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Transaction ID',
			name: 'transactionId',
			type: 'string',
			required: true,
			default: '',
			description: 'The transaction ID sent when the purchase was tracked (at most 255 characters)',
		},
		{
			displayName: 'Reason',
			name: 'reason',
			type: 'string',
			default: '',
			description:
				'Optional, at most 255 characters; stored on the conversion and on the cancelled rewards',
		},
	],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const params = new ParameterReader(this, itemIndex);
	const body: IDataObject = {
		transaction_id: params.requiredString('transactionId', 'Transaction ID'),
	};
	const reason = params.optionalString('reason', 'Reason');
	if (reason !== undefined) body.reason = reason;
	return (await apiRequest.call(
		this,
		{ method: 'POST', path: '/track/refund', body, operation: profile },
		itemIndex,
	)) as IDataObject;
}
