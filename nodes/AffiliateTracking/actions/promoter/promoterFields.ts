import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
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

/** The promoter's path below /promoters, its user ID percent-encoded as one segment. */
export function promoterPath(params: ParameterReader, suffix = ''): string {
	const userId = params.requiredString('userId', 'User ID');
	if (userId === '.' || userId === '..') {
		throw params.fail('User ID', 'cannot be "." or ".." in an address path');
	}
	return `/promoters/${encodeRfc3986(userId)}${suffix}`;
}

/**
 * A list the promoter has below its path (`/balances`, `/links`): one item per entry, or, with
 * Split Into Items off, one item holding the list under the list's name.
 */
export async function readPromoterList(
	{ params, request }: ItemRun,
	list: 'balances' | 'links',
): Promise<OperationResult> {
	const entries = (await request({
		method: 'GET',
		path: promoterPath(params, `/${list}`),
	})) as IDataObject[];
	return params.raw('splitIntoItems', true) === false ? { [list]: entries } : entries;
}
