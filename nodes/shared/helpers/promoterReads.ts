import type { OperationProfile } from '../transport/operationProfile';

/** A read of one promoter: it changes nothing, and the promoter's User ID names its record. */
export function promoterReadProfile(action: string): OperationProfile {
	return { action, kind: 'read', key: { label: 'User ID', parameter: 'userId' } };
}

/** The promoter reads that both the node's operations and the trigger's polls send. */
export const promoterBalancesProfile = promoterReadProfile('Get Promoter Balances');

export const promoterStatisticsProfile = promoterReadProfile('Get Promoter Statistics');
