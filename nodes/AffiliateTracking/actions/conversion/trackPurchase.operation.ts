import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { MAX_TRACKED_ENTRIES, sendOnce } from '../../../shared/helpers/sendOnce';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { extraBodyFieldsOption, withExtraBodyFields } from './conversionFields';

/** The option's label, named in its messages. */
export const SKIP_TRACKED_OPTION = 'Skip Transactions Already Tracked';

/** The option's parameter path in the node (workflow JSON: `parameters.additionalFields.skipTrackedTransactions`). */
export const SKIP_TRACKED_PARAMETER = 'additionalFields.skipTrackedTransactions';

/** The status of an item the option skipped. */
export const ALREADY_TRACKED = 'ALREADY_TRACKED';

/**
 * The value n8n's deduplication store keeps for a transaction: namespaced, so that a Remove
 * Duplicates node of the same workflow that records raw order IDs never makes this node skip.
 */
export function trackedTransactionKey(transactionId: string): string {
	return `affiliate-tracking:purchase:${transactionId}`;
}

export const profile: OperationProfile = {
	action: 'Track Purchase',
	kind: 'write',
	key: { label: 'Transaction ID', parameter: 'transactionId' },
};

const properties: INodeProperties[] = [
	{
		displayName: 'Invited User ID',
		name: 'invitedUserId',
		type: 'string',
		required: true,
		default: '',
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
		options: [
			extraBodyFieldsOption,
			{
				displayName: SKIP_TRACKED_OPTION,
				name: 'skipTrackedTransactions',
				type: 'boolean',
				default: false,
				description: `Whether to send each Transaction ID at most once per workflow, for webhooks that are delivered again and executions that are retried. A repeat gives an item with status ${ALREADY_TRACKED} and sends nothing. Uses n8n's deduplication store (the Remove Duplicates node's, kept in n8n's database, the last ${MAX_TRACKED_ENTRIES.toLocaleString('en-US')} transactions).`,
			},
		],
	},
];

const displayOptions = { show: { resource: ['conversion'], operation: ['trackPurchase'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({
	context,
	itemIndex,
	params,
	request,
}: ItemRun): Promise<OperationResult> {
	const invitedUserId = params.requiredString('invitedUserId', 'Invited User ID');
	const transactionId = params.requiredString('transactionId', 'Transaction ID');
	const body = withExtraBodyFields(params, {
		event_name: 'purchase',
		invited_user_id: invitedUserId,
		transaction_id: transactionId,
		conversion_value: params.amount('conversionValue', 'Conversion Value', true),
	});
	const send = async () =>
		(await request({ method: 'POST', path: '/track/conversion', body })) as IDataObject;
	if (params.raw(SKIP_TRACKED_PARAMETER, false) !== true) return await send();
	// Checked after every parameter, so that input refused before sending never reaches the store.
	return await sendOnce(
		context,
		itemIndex,
		{
			option: SKIP_TRACKED_OPTION,
			key: trackedTransactionKey(transactionId),
			subject: `transaction "${transactionId}"`,
			skipped: {
				event_name: 'purchase',
				invited_user_id: invitedUserId,
				transaction_id: transactionId,
				status: ALREADY_TRACKED,
				message: `Not sent: an earlier execution of this workflow sent transaction "${transactionId}" (${SKIP_TRACKED_OPTION})`,
			},
		},
		send,
	);
}
