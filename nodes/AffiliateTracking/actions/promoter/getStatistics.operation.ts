import { updateDisplayOptions, type IDataObject, type INodeProperties } from 'n8n-workflow';

import type { ItemRun, OperationResult } from '../../../shared/helpers/itemLoop';
import { promoterStatisticsProfile, userIdField } from '../../../shared/helpers/promoterReads';
import { readPromoterPath } from './promoterFields';

/** Shared with the trigger, which polls the same read. */
export const profile = promoterStatisticsProfile;

const startDateField: INodeProperties = {
	displayName: 'Start Date',
	name: 'startDate',
	type: 'string',
	default: '',
	placeholder: '2026-03-01',
	description:
		'Optional. First day counted, written YYYY-MM-DD, from 00:00:00. Dates are read in UTC+8 (China Standard Time).',
};

const endDateField: INodeProperties = {
	displayName: 'End Date',
	name: 'endDate',
	type: 'string',
	default: '',
	placeholder: '2026-03-31',
	description:
		'Optional. Last day counted, written YYYY-MM-DD, to 23:59:59; not before Start Date. Dates are read in UTC+8 (China Standard Time).',
};

const displayOptions = { show: { resource: ['promoter'], operation: ['getStatistics'] } };

export const description = updateDisplayOptions(displayOptions, [
	userIdField,
	startDateField,
	endDateField,
]);

export async function execute({ params, request }: ItemRun): Promise<OperationResult> {
	const path = readPromoterPath(params, '/statistics');
	const startDate = params.date(startDateField);
	const endDate = params.date(endDateField);
	if (startDate !== undefined && endDate !== undefined && startDate > endDate) {
		throw params.fail(
			endDateField,
			`must not be earlier than ${startDateField.displayName} (${endDate} is before ${startDate})`,
		);
	}
	return (await request({
		method: 'GET',
		path,
		query: { start_date: startDate, end_date: endDate },
	})) as IDataObject;
}
