import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { SERVER_MESSAGES } from '../../../shared/transport/errors';
import { invitedUserIdProperty } from './conversionFields';

export const profile: OperationProfile = {
	action: 'Track Signup',
	kind: 'write',
	key: { label: 'Invited User ID', parameter: 'invitedUserId' },
};

const properties: INodeProperties[] = [
	invitedUserIdProperty,
	{
		displayName: 'Invite Code',
		name: 'inviteCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: '={{ $json.query.ps_ref }}',
		description:
			'The ps_ref query parameter of the landing URL, kept until the signup completes. A signup counts once per invited user.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Treat "Already Exists" as Success',
				name: 'alreadyExistsIsSuccess',
				type: 'boolean',
				default: false,
				description:
					'Whether a signup reported before (for example by a run that timed out) gives an item with status ALREADY_EXISTS instead of an error',
			},
			{
				displayName: 'Click ID',
				name: 'clickId',
				type: 'string',
				default: '',
				description:
					'Click ID; may carry the same ps_ref value as Invite Code when the attribution type is uncertain',
			},
			{
				displayName: 'Invited User Name',
				name: 'invitedUserName',
				type: 'string',
				default: '',
				description: 'Display name of the user in your product',
			},
		],
	},
];

const displayOptions = { show: { resource: ['conversion'], operation: ['trackSignup'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body: IDataObject = {
		event_name: 'signup',
		invited_user_id: params.requiredString('invitedUserId', 'Invited User ID'),
		invite_code: params.requiredString('inviteCode', 'Invite Code'),
	};
	const name = params.optionalString('additionalFields.invitedUserName', 'Invited User Name');
	if (name !== undefined) body.invited_user_name = name;
	const clickId = params.optionalString('additionalFields.clickId', 'Click ID');
	if (clickId !== undefined) body.click_id = clickId;
	const alreadyExistsIsSuccess =
		params.raw('additionalFields.alreadyExistsIsSuccess', false) === true;
	return (await request({
		method: 'POST',
		path: '/track/conversion',
		body,
		recover: alreadyExistsIsSuccess
			? ({ message }) =>
					SERVER_MESSAGES.alreadyExists.test(message)
						? {
								event_name: 'signup',
								invited_user_id: body.invited_user_id,
								status: 'ALREADY_EXISTS',
								message,
							}
						: undefined
			: undefined,
	})) as IDataObject;
}
