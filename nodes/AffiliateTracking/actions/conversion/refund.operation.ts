import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { transactionIdField } from './conversionFields';

export const profile: OperationProfile = {
	action: 'Refund',
	kind: 'idempotentWrite',
	key: transactionIdField,
};

const reasonField: INodeProperties = {
	displayName: 'Reason',
	name: 'reason',
	type: 'string',
	default: '',
	description:
		'Optional, at most 255 characters; stored on the conversion and on the cancelled rewards',
};

const properties: INodeProperties[] = [
	{
		displayName:
			'Full refunds only: cancels the unpaid rewards of the purchase (paid ones are kept and counted). Repeating a refund is safe: it answers ALREADY_PROCESSED and changes nothing.',
		name: 'refundNotice',
		type: 'notice',
		default: '',
	},
	{
		...transactionIdField,
		required: true,
		description: 'The transaction ID sent when the purchase was tracked (at most 255 characters)',
	},
	reasonField,
];

const displayOptions = { show: { resource: ['conversion'], operation: ['refund'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body: IDataObject = { transaction_id: params.requiredString(transactionIdField) };
	const reason = params.optionalString(reasonField);
	if (reason !== undefined) body.reason = reason;
	return (await request({ method: 'POST', path: '/track/refund', body })) as IDataObject;
}
