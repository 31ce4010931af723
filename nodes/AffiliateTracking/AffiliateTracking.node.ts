import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import * as authorization from './actions/authorization';
import * as conversion from './actions/conversion';
import * as promoter from './actions/promoter';
import { router } from './actions/router';
import { assertSupportedN8n, MAIN_CONNECTION } from '../shared/helpers/n8nCompatibility';
import { sharedOptions } from '../shared/helpers/sharedOptions';
import { CREDENTIAL_NAME } from '../shared/transport';

assertSupportedN8n();

export class AffiliateTracking implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Affiliate Tracking',
		name: 'affiliateTracking',
		icon: {
			light: 'file:../../icons/affiliateTracking.svg',
			dark: 'file:../../icons/affiliateTracking.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Relay authorized users, track signups and purchases, refund conversions, and read promoters of an affiliate and referral tracking service',
		defaults: { name: 'Affiliate Tracking' },
		usableAsTool: true,
		inputs: [MAIN_CONNECTION],
		outputs: [MAIN_CONNECTION],
		credentials: [{ name: CREDENTIAL_NAME, required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Authorization', value: 'authorization' },
					{ name: 'Conversion', value: 'conversion' },
					{ name: 'Promoter', value: 'promoter' },
				],
				default: 'conversion',
			},
			...authorization.description,
			...conversion.description,
			...promoter.description,
			sharedOptions,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router(this);
	}
}
