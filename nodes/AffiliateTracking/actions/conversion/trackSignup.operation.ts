import { updateDisplayOptions, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { OperationResult } from '../../helpers/itemLoop';
import { ParameterReader } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { invitedUserIdProperty } from './conversionFields';

export const description = updateDisplayOptions(
	{ show: { resource: ['conversion'], operation: ['trackSignup'] } },
	[
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
					displayName: 'Click ID',
					name: 'clickId',
					type: 'string',
					default: '',
					description: 'Click ID; may carry the same ps_ref value as Invite Code when the attribution type is uncertain',
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
	],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const params = new ParameterReader(this, itemIndex);
	const body: IDataObject = {
		event_name: 'signup',
		invited_user_id: params.requiredString('invitedUserId', 'Invited User ID'),
		invite_code: params.requiredString('inviteCode', 'Invite Code'),
	};
	const name = params.optionalString('additionalFields.invitedUserName', 'Invited User Name');
	if (name !== undefined) body.invited_user_name = name;
	const clickId = params.optionalString('additionalFields.clickId', 'Click ID');
	if (clickId !== undefined) body.click_id = clickId;
	return (await apiRequest.call(this, { method: 'POST', path: '/track/conversion', body }, itemIndex)) as IDataObject;
}
