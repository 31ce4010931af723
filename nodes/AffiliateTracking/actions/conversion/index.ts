import * as refund from './refund.operation';
import * as trackEvent from './trackEvent.operation';
import * as trackPurchase from './trackPurchase.operation';
import * as trackSignup from './trackSignup.operation';
import { resourceDescription } from '../resourceDescription';

/** The router's operations of this resource, by operation value. */
export const operations = { refund, trackEvent, trackPurchase, trackSignup };

export const description = resourceDescription(
	'conversion',
	operations,
	{
		refund: {
			name: 'Refund',
			action: 'Refund',
			description: 'Reverse the rewards of a purchase after a full refund',
		},
		trackEvent: {
			name: 'Track Custom Event',
			action: 'Track custom event',
			description: 'Report an event of your own, paid when it has a positive value',
		},
		trackPurchase: {
			name: 'Track Purchase',
			action: 'Track purchase',
			description: 'Report a purchase by a referred user',
		},
		trackSignup: {
			name: 'Track Signup',
			action: 'Track signup',
			description: 'Report the signup of a referred user',
		},
	},
	'trackSignup',
);
