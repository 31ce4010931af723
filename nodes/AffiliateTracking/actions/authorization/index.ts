import * as authorize from './authorize.operation';
import * as authorizeAndRedirect from './authorizeAndRedirect.operation';
import * as exchangeCode from './exchangeCode.operation';
import * as getDebugCode from './getDebugCode.operation';
import { resourceDescription } from '../resourceDescription';

/** The router's operations of this resource, by operation value. */
export const operations = { authorize, authorizeAndRedirect, exchangeCode, getDebugCode };

export const description = resourceDescription(
	'authorization',
	operations,
	{
		authorize: {
			name: 'Authorize',
			action: 'Authorize',
			description:
				'Create a one-time authorization code and the promotion link for a user of your product',
		},
		authorizeAndRedirect: {
			name: 'Authorize and Get Redirect',
			action: 'Authorize and get redirect',
			description:
				'Same as Authorize, answered as a redirect; returns the redirect address without following it',
		},
		exchangeCode: {
			name: 'Exchange Code',
			action: 'Exchange code',
			description: 'Exchange the x_auth_code of a landing URL for the authorized user',
		},
		getDebugCode: {
			name: 'Get Debug Code',
			action: 'Get debug code',
			description: 'Create a debug authorization code to test the landing and signup flow',
		},
	},
	'authorize',
);
