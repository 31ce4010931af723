import * as get from './get.operation';
import * as getBalances from './getBalances.operation';
import * as getLinks from './getLinks.operation';
import * as getStatistics from './getStatistics.operation';
import * as login from './login.operation';
import { resourceDescription } from '../resourceDescription';

/** The router's operations of this resource, by operation value. */
export const operations = { get, getBalances, getLinks, getStatistics, login };

export const description = resourceDescription(
	'promoter',
	operations,
	{
		get: {
			name: 'Get',
			action: 'Get promoter',
			description: "Get a promoter's profile, optionally with links, statistics and balances",
		},
		getBalances: {
			name: 'Get Balances',
			action: 'Get promoter balances',
			description: "Get a promoter's balances, one per currency",
		},
		getLinks: {
			name: 'Get Links',
			action: 'Get promoter links',
			description: "Get a promoter's enabled promotion links",
		},
		getStatistics: {
			name: 'Get Statistics',
			action: 'Get promoter statistics',
			description: "Get a promoter's clicks, signups, paying customers and rewards",
		},
		login: {
			name: 'Login',
			action: 'Promoter login',
			description: 'Create or log in a promoter and get a promoter center token',
		},
	},
	'get',
);
