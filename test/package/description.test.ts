/**
 * The node and credential as n8n loads them from dist/: names of the design contract, n8n's
 * description conventions, and option defaults that match the transport's.
 */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import {
	DEFAULT_CONCURRENCY,
	DEFAULT_REQUEST_SETTINGS,
} from '../../nodes/AffiliateTracking/helpers/runOptions';
import { loadPackage } from '../helpers/n8n';

const OPERATIONS: Record<string, Record<string, string>> = {
	authorization: {
		authorize: 'Authorize',
		authorizeAndRedirect: 'Authorize and get redirect',
		exchangeCode: 'Exchange code',
		getDebugCode: 'Get debug code',
	},
	conversion: {
		refund: 'Refund',
		trackEvent: 'Track custom event',
		trackPurchase: 'Track purchase',
		trackSignup: 'Track signup',
	},
	promoter: {
		get: 'Get promoter',
		getBalances: 'Get promoter balances',
		getLinks: 'Get promoter links',
		getStatistics: 'Get promoter statistics',
		login: 'Promoter login',
	},
};

describe('node and credential descriptions', () => {
	let description: INodeTypeDescription;
	let properties: INodeProperties[];

	beforeAll(async () => {
		const loader = await loadPackage();
		description = loader.nodeTypes.affiliateTracking.type.description as INodeTypeDescription;
		properties = description.properties;
	});

	it('keeps the names of the design contract', async () => {
		const loader = await loadPackage();
		expect(description).toMatchObject({
			name: 'affiliateTracking',
			displayName: 'Affiliate Tracking',
			usableAsTool: true,
			version: 1,
		});
		expect(description.credentials).toEqual([{ name: 'affiliateTrackingApi', required: true }]);
		const credential = loader.credentialTypes.affiliateTrackingApi.type;
		expect(credential.displayName).toBe('Affiliate Tracking API');
		expect(credential.properties.map((p) => p.name)).toEqual([
			'baseUrl',
			'apiKey',
			'apiSecret',
			'signatureVersion',
			'promoterCenterUrl',
		]);
		expect(credential.properties.find((p) => p.name === 'apiSecret')?.typeOptions?.password).toBe(
			true,
		);
		expect(credential.properties.find((p) => p.name === 'signatureVersion')?.default).toBe('v2');
	});

	it('offers the 13 operations with their action labels, values alphabetised', () => {
		const resource = properties.find((p) => p.name === 'resource');
		expect(resource?.noDataExpression).toBe(true);
		expect((resource?.options as INodePropertyOptions[]).map((o) => o.value)).toEqual(
			Object.keys(OPERATIONS),
		);
		for (const [name, actions] of Object.entries(OPERATIONS)) {
			const operation = properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === name,
			);
			expect(operation?.noDataExpression).toBe(true);
			const options = operation?.options as INodePropertyOptions[];
			expect(Object.fromEntries(options.map((o) => [o.value, o.action]))).toEqual(actions);
			expect(options.map((o) => o.name)).toEqual([...options.map((o) => o.name)].sort());
		}
	});

	it('shows every operation field only for its operation', () => {
		for (const property of properties) {
			if (['resource', 'options'].includes(property.name) || property.name === 'operation')
				continue;
			expect([property.name, property.displayOptions?.show?.operation?.length]).toEqual([
				property.name,
				1,
			]);
		}
	});

	it('gives the request options the transport defaults', () => {
		const options = properties.find((p) => p.name === 'options')?.options as INodeProperties[];
		const defaults = Object.fromEntries(options.map((o) => [o.name, o.default]));
		expect(defaults).toMatchObject({
			maxRetries: DEFAULT_REQUEST_SETTINGS.maxRetries,
			retryDelay: DEFAULT_REQUEST_SETTINGS.retryDelayMs,
			timeout: DEFAULT_REQUEST_SETTINGS.timeoutMs,
			concurrency: DEFAULT_CONCURRENCY,
		});
	});
});
