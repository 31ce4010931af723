import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { promoterStatisticsProfile } from '../../../shared/helpers/promoterReads';
import { promoterPath, userIdProperty } from './promoterFields';

/** Shared with the trigger, which polls the same read. */
export const profile = promoterStatisticsProfile;

const properties: INodeProperties[] = [
	userIdProperty,
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'string',
		default: '',
		placeholder: '2026-03-01',
		description:
			'Optional. First day counted, written YYYY-MM-DD, from 00:00:00. Dates are read in UTC+8 (China Standard Time).',
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'string',
		default: '',
		placeholder: '2026-03-31',
		description:
			'Optional. Last day counted, written YYYY-MM-DD, to 23:59:59; not before Start Date. Dates are read in UTC+8 (China Standard Time).',
	},
];

const displayOptions = { show: { resource: ['promoter'], operation: ['getStatistics'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const path = promoterPath(params, '/statistics');
	const startDate = params.date('startDate', 'Start Date');
	const endDate = params.date('endDate', 'End Date');
	if (startDate !== undefined && endDate !== undefined && startDate > endDate) {
		throw params.fail(
			'End Date',
			`must not be earlier than Start Date (${endDate} is before ${startDate})`,
		);
	}
	return (await request({
		method: 'GET',
		path,
		query: { start_date: startDate, end_date: endDate },
	})) as IDataObject;
}
