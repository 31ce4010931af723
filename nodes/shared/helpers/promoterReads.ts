import type { OperationProfile } from '../transport/operationProfile';

/** The promoter reads that both the node's operations and the trigger's polls send. */
export const promoterBalancesProfile: OperationProfile = {
	action: 'Get Promoter Balances',
	kind: 'read',
	key: { label: 'User ID', parameter: 'userId' },
};

export const promoterStatisticsProfile: OperationProfile = {
	action: 'Get Promoter Statistics',
	kind: 'read',
	key: { label: 'User ID', parameter: 'userId' },
};
