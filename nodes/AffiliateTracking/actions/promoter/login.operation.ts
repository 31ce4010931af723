import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { userIdField } from '../../../shared/helpers/promoterReads';
import type { OperationProfile } from '../../../shared/transport/operationProfile';
import { getCredentials } from '../../../shared/transport';
import { additionalFields } from '../fields';

export const LANGUAGES = ['en', 'zh', 'zh-hk'] as const;
export const THEME_MODES = ['light', 'dark'] as const;

export const profile: OperationProfile = {
	action: 'Promoter Login',
	kind: 'idempotentWrite',
	key: userIdField,
};

const emailOption: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
};

const languageOption: INodeProperties = {
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
};

const phoneOption: INodeProperties = {
	displayName: 'Phone',
	name: 'phone',
	type: 'string',
	default: '',
};

const themeOption: INodeProperties = {
	displayName: 'Theme',
	name: 'themeMode',
	type: 'options',
	options: [
		{ name: 'Dark', value: 'dark' },
		{ name: 'Light', value: 'light' },
	],
	default: 'light',
};

const usernameOption: INodeProperties = {
	displayName: 'Username',
	name: 'username',
	type: 'string',
	default: '',
	description: 'Display name; when empty the email is used, or a name made from the user ID',
};

const optionalFields = additionalFields([
	emailOption,
	languageOption,
	phoneOption,
	themeOption,
	usernameOption,
]);

const properties: INodeProperties[] = [
	{
		...userIdField,
		description:
			"Your user's stable, unique ID; always send the same value for the same user. Creates the promoter on first use.",
	},
	optionalFields,
];

const displayOptions = { show: { resource: ['promoter'], operation: ['login'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Also returns the promoter-center addresses when the credential has one. The token is
 * fresh: request a new one at every entry to the promoter center rather than storing it.
 */
export async function execute({ context, params, request }: ItemRun): Promise<OperationResult> {
	const body: IDataObject = { user_id: params.requiredString(userIdField) };
	const optional = params.within(optionalFields);
	const email = optional.email(emailOption);
	if (email !== undefined) body.email = email;
	const username = optional.optionalString(usernameOption);
	if (username !== undefined) body.username = username;
	const lang = optional.oneOf(languageOption, LANGUAGES);
	if (lang !== undefined) body.lang = lang;
	const phone = optional.optionalString(phoneOption);
	if (phone !== undefined) body.phone = phone;
	const themeMode = optional.oneOf(themeOption, THEME_MODES);
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
