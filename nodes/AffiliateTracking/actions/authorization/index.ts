import type { INodeProperties } from 'n8n-workflow';

import * as authorize from './authorize.operation';
import * as authorizeAndRedirect from './authorizeAndRedirect.operation';
import * as exchangeCode from './exchangeCode.operation';
import * as getDebugCode from './getDebugCode.operation';

/** The router's operations of this resource, by operation value. */
export const operations = { authorize, authorizeAndRedirect, exchangeCode, getDebugCode };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['authorization'] } },
		options: [
			{
				name: 'Authorize',
				value: 'authorize',
				action: 'Authorize',
				description:
					'Create a one-time authorization code and the promotion link for a user of your product',
			},
			{
				name: 'Authorize and Get Redirect',
				value: 'authorizeAndRedirect',
				action: 'Authorize and get redirect',
				description:
					'Same as Authorize, answered as a redirect; returns the redirect address without following it',
			},
			{
				name: 'Exchange Code',
				value: 'exchangeCode',
				action: 'Exchange code',
				description: 'Exchange the x_auth_code of a landing URL for the authorized user',
			},
			{
				name: 'Get Debug Code',
				value: 'getDebugCode',
				action: 'Get debug code',
				description: 'Create a debug authorization code to test the landing and signup flow',
			},
		],
		default: 'authorize',
	},
	...authorize.description,
	...authorizeAndRedirect.description,
	...exchangeCode.description,
	...getDebugCode.description,
];
