import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { MAX_TRACKED_ENTRIES, sendOnce } from '../../../shared/helpers/sendOnce';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { additionalFields } from '../fields';
import {
	conversionValueField,
	extraBodyFieldsOption,
	invitedUserIdField,
	transactionIdField,
	withExtraBodyFields,
} from './conversionFields';

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
	key: transactionIdField,
};

const amountPaidField: INodeProperties = {
	...conversionValueField,
	required: true,
	description: 'Amount paid, in the product currency',
};

const skipTrackedOption: INodeProperties = {
	displayName: 'Skip Transactions Already Tracked',
	name: 'skipTrackedTransactions',
	type: 'boolean',
	default: false,
	description: `Whether to send each Transaction ID at most once per workflow, for webhooks that are delivered again and executions that are retried. A repeat gives an item with status ${ALREADY_TRACKED} and sends nothing. Uses n8n's deduplication store (the Remove Duplicates node's, kept in n8n's database, the last ${MAX_TRACKED_ENTRIES.toLocaleString('en-US')} transactions).`,
};

/** The option's label, named in its messages. */
export const SKIP_TRACKED_OPTION = skipTrackedOption.displayName;

const optionalFields = additionalFields([extraBodyFieldsOption, skipTrackedOption]);

const properties: INodeProperties[] = [
	{
		...invitedUserIdField,
		description:
			'Stable ID of the paying user in your product; their signup must have been tracked first',
	},
	{ ...transactionIdField, required: true },
	amountPaidField,
	optionalFields,
];

const displayOptions = { show: { resource: ['conversion'], operation: ['trackPurchase'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({
	context,
	itemIndex,
	params,
	request,
}: ItemRun): Promise<OperationResult> {
	const invitedUserId = params.requiredString(invitedUserIdField);
	const transactionId = params.requiredString(transactionIdField);
	const optional = params.within(optionalFields);
	const body = withExtraBodyFields(optional, {
		event_name: 'purchase',
		invited_user_id: invitedUserId,
		transaction_id: transactionId,
		conversion_value: params.amount(amountPaidField),
	});
	const send = async () =>
		(await request({ method: 'POST', path: '/track/conversion', body })) as IDataObject;
	if (optional.raw(skipTrackedOption) !== true) return await send();
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
