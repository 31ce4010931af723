import type { INodeProperties } from 'n8n-workflow';

import { encodeRfc3986 } from '../../../shared/transport/signing';
import type { ParameterReader } from '../../../shared/helpers/validation';

export const userIdProperty: INodeProperties = {
	displayName: 'User ID',
	name: 'userId',
	type: 'string',
	required: true,
	default: '',
	description: "Your user's ID (the User ID given to Promoter Login), at most 255 characters",
};

export const splitIntoItemsProperty: INodeProperties = {
	displayName: 'Split Into Items',
	name: 'splitIntoItems',
	type: 'boolean',
	default: true,
	description:
		'Whether to output one item per entry. When off, one item holds the whole list, so every input item gives exactly one output item even when the list is empty.',
};

/** The promoter's path below /promoters, its user ID percent-encoded as one segment. */
export function promoterPath(params: ParameterReader, suffix = ''): string {
	const userId = params.requiredString('userId', 'User ID');
	if (userId === '.' || userId === '..') {
		throw params.fail('User ID', 'cannot be "." or ".." in an address path');
	}
	return `/promoters/${encodeRfc3986(userId)}${suffix}`;
}
