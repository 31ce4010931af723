import type { INodeProperties } from 'n8n-workflow';

import type { OperationProfile } from '../transport/operationProfile';
import { encodeRfc3986 } from '../transport/signing';

/**
 * Your user's ID, which names a promoter (and, in the authorization relays, the user relayed).
 * Here, beside the profiles that name it as their key; an operation that says more of it spreads
 * it with its own description.
 */
export const userIdField: INodeProperties = {
	displayName: 'User ID',
	name: 'userId',
	type: 'string',
	required: true,
	default: '',
	description: "Your user's ID (the User ID given to Promoter Login), at most 255 characters",
};

/**
 * Whether a user ID can name a promoter in its path (`/promoters/<user ID>`): "." and ".." cannot,
 * because an address resolver reads them as moves, not as a segment.
 */
export function fitsPromoterPath(userId: string): boolean {
	return userId !== '.' && userId !== '..';
}

/** The promoter's path below the API prefix, its user ID percent-encoded as one segment. */
export function promoterPath(userId: string, suffix = ''): string {
	return `/promoters/${encodeRfc3986(userId)}${suffix}`;
}

/** A read of one promoter: it changes nothing, and the promoter's User ID names its record. */
export function promoterReadProfile(action: string): OperationProfile {
	return { action, kind: 'read', key: userIdField };
}

/** The promoter reads that both the node's operations and the trigger's polls send. */
export const promoterBalancesProfile = promoterReadProfile('Get Promoter Balances');

export const promoterStatisticsProfile = promoterReadProfile('Get Promoter Statistics');
