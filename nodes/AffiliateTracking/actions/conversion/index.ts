import type { INodeProperties } from 'n8n-workflow';

import * as refund from './refund.operation';
import * as trackEvent from './trackEvent.operation';
import * as trackPurchase from './trackPurchase.operation';
import * as trackSignup from './trackSignup.operation';

/** The router's operations of this resource, by operation value. */
export const operations = { refund, trackEvent, trackPurchase, trackSignup };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['conversion'] } },
		options: [
			{
				name: 'Refund',
				value: 'refund',
				action: 'Refund',
				description: 'Reverse the rewards of a purchase after a full refund',
			},
			{
				name: 'Track Custom Event',
				value: 'trackEvent',
				action: 'Track custom event',
				description: 'Report an event of your own, paid when it has a positive value',
			},
			{
				name: 'Track Purchase',
				value: 'trackPurchase',
				action: 'Track purchase',
				description: 'Report a purchase by a referred user',
			},
			{
				name: 'Track Signup',
				value: 'trackSignup',
				action: 'Track signup',
				description: 'Report the signup of a referred user',
			},
		],
		default: 'trackSignup',
	},
	...refund.description,
	...trackEvent.description,
	...trackPurchase.description,
	...trackSignup.description,
];
