import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { fitsPromoterPath, promoterPath, userIdField } from '../../../shared/helpers/promoterReads';
import type { ParameterReader } from '../../../shared/helpers/validation';

export const splitIntoItemsField: INodeProperties = {
	displayName: 'Split Into Items',
	name: 'splitIntoItems',
	type: 'boolean',
	default: true,
	description:
		'Whether to output one item per entry. When off, one item holds the whole list, so every input item gives exactly one output item even when the list is empty.',
};

/** The path of the promoter named by the item's User ID, with `suffix` below it. */
export function readPromoterPath(params: ParameterReader, suffix = ''): string {
	const userId = params.requiredString(userIdField);
	if (!fitsPromoterPath(userId)) {
		throw params.fail(userIdField, 'cannot be "." or ".." in an address path');
	}
	return promoterPath(userId, suffix);
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
		path: readPromoterPath(params, `/${list}`),
	})) as IDataObject[];
	return params.raw(splitIntoItemsField) === false ? { [list]: entries } : entries;
}
