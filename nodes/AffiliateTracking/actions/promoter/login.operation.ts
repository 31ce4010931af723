import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { getCredentials } from '../../../shared/transport';

export const LANGUAGES = ['en', 'zh', 'zh-hk'] as const;
export const THEME_MODES = ['light', 'dark'] as const;

export const profile: OperationProfile = {
	action: 'Promoter Login',
	kind: 'idempotentWrite',
	key: { label: 'User ID', parameter: 'userId' },
};

const properties: INodeProperties[] = [
	{
		displayName: 'User ID',
		name: 'userId',
		type: 'string',
		required: true,
		default: '',
		description:
			"Your user's stable, unique ID; always send the same value for the same user. Creates the promoter on first use.",
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
			},
			{
				displayName: 'Language',
				name: 'lang',
				type: 'options',
				options: [
					{ name: 'Chinese (Hong Kong)', value: 'zh-hk' },
					{ name: 'Chinese (Simplified)', value: 'zh' },
					{ name: 'English', value: 'en' },
				],
				default: 'en',
				description: 'Language of the promoter center',
			},
			{
				displayName: 'Phone',
				name: 'phone',
				type: 'string',
				default: '',
			},
			{
				displayName: 'Theme',
				name: 'themeMode',
				type: 'options',
				options: [
					{ name: 'Dark', value: 'dark' },
					{ name: 'Light', value: 'light' },
				],
				default: 'light',
			},
			{
				displayName: 'Username',
				name: 'username',
				type: 'string',
				default: '',
				description: 'Display name; when empty the email is used, or a name made from the user ID',
			},
		],
	},
];

const displayOptions = { show: { resource: ['promoter'], operation: ['login'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Also returns the promoter-center addresses when the credential has one. The token is
 * fresh: request a new one at every entry to the promoter center rather than storing it.
 */
export async function execute({ context, params, request }: ItemRun): Promise<OperationResult> {
	const body: IDataObject = { user_id: params.requiredString('userId', 'User ID') };
	const email = params.email('additionalFields.email', 'Email');
	if (email !== undefined) body.email = email;
	const username = params.optionalString('additionalFields.username', 'Username');
	if (username !== undefined) body.username = username;
	const lang = params.oneOf('additionalFields.lang', 'Language', LANGUAGES);
	if (lang !== undefined) body.lang = lang;
	const phone = params.optionalString('additionalFields.phone', 'Phone');
	if (phone !== undefined) body.phone = phone;
	const themeMode = params.oneOf('additionalFields.themeMode', 'Theme', THEME_MODES);
	if (themeMode !== undefined) body.theme_mode = themeMode;

	const data = (await request({ method: 'POST', path: '/promoter/login', body })) as IDataObject;
	const { promoterCenterUrl } = await getCredentials(context);
	if (promoterCenterUrl === undefined || typeof data.token !== 'string') return data;
	const token = encodeURIComponent(data.token);
	return {
		...data,
		promoterCenterUrl: `${promoterCenterUrl}?at=${token}`,
		promoterCenterIframeUrl: `${promoterCenterUrl}/iframe/${token}`,
	};
}
