import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { SERVER_MESSAGES } from '../../../shared/transport/errors';
import { additionalFields } from '../fields';
import { invitedUserIdField } from './conversionFields';

export const profile: OperationProfile = {
	action: 'Track Signup',
	kind: 'write',
	key: invitedUserIdField,
};

const inviteCodeField: INodeProperties = {
	displayName: 'Invite Code',
	name: 'inviteCode',
	type: 'string',
	required: true,
	default: '',
	placeholder: '={{ $json.query.ps_ref }}',
	description:
		'The ps_ref query parameter of the landing URL, kept until the signup completes. A signup counts once per invited user.',
};

const alreadyExistsOption: INodeProperties = {
	displayName: 'Treat "Already Exists" as Success',
	name: 'alreadyExistsIsSuccess',
	type: 'boolean',
	default: false,
	description:
		'Whether a signup reported before (for example by a run that timed out) gives an item with status ALREADY_EXISTS instead of an error',
};

const clickIdOption: INodeProperties = {
	displayName: 'Click ID',
	name: 'clickId',
	type: 'string',
	default: '',
	description:
		'Click ID; may carry the same ps_ref value as Invite Code when the attribution type is uncertain',
};

const invitedUserNameOption: INodeProperties = {
	displayName: 'Invited User Name',
	name: 'invitedUserName',
	type: 'string',
	default: '',
	description: 'Display name of the user in your product',
};

const optionalFields = additionalFields([
	alreadyExistsOption,
	clickIdOption,
	invitedUserNameOption,
]);

const properties: INodeProperties[] = [invitedUserIdField, inviteCodeField, optionalFields];

const displayOptions = { show: { resource: ['conversion'], operation: ['trackSignup'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const body: IDataObject = {
		event_name: 'signup',
		invited_user_id: params.requiredString(invitedUserIdField),
		invite_code: params.requiredString(inviteCodeField),
	};
	const optional = params.within(optionalFields);
	const name = optional.optionalString(invitedUserNameOption);
	if (name !== undefined) body.invited_user_name = name;
	const clickId = optional.optionalString(clickIdOption);
	if (clickId !== undefined) body.click_id = clickId;
	const alreadyExistsIsSuccess = optional.raw(alreadyExistsOption) === true;
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
