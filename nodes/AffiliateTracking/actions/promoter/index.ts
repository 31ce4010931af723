import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getBalances from './getBalances.operation';
import * as getLinks from './getLinks.operation';
import * as getStatistics from './getStatistics.operation';
import * as login from './login.operation';

/** The router's operations of this resource, by operation value. */
export const operations = { get, getBalances, getLinks, getStatistics, login };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['promoter'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get promoter',
				description: "Get a promoter's profile, optionally with links, statistics and balances",
			},
			{
				name: 'Get Balances',
				value: 'getBalances',
				action: 'Get promoter balances',
				description: "Get a promoter's balances, one per currency",
			},
			{
				name: 'Get Links',
				value: 'getLinks',
				action: 'Get promoter links',
				description: "Get a promoter's enabled promotion links",
			},
			{
				name: 'Get Statistics',
				value: 'getStatistics',
				action: 'Get promoter statistics',
				description: "Get a promoter's clicks, signups, paying customers and rewards",
			},
			{
				name: 'Login',
				value: 'login',
				action: 'Promoter login',
				description: 'Create or log in a promoter and get a promoter center token',
			},
		],
		default: 'get',
	},
	...get.description,
	...getBalances.description,
	...getLinks.description,
	...getStatistics.description,
	...login.description,
];
