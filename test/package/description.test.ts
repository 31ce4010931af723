/**
 * The node and credential as n8n loads them from dist/: names of the design contract, n8n's
 * description conventions, and option defaults that match the transport's.
 */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../../nodes/shared/helpers/runOptions';
import { DEFAULT_REQUEST_SETTINGS } from '../../nodes/shared/transport/requestSettings';
import { DEFAULT_MAX_PROMOTERS } from '../../nodes/AffiliateTrackingTrigger/AffiliateTrackingTrigger.node';
import { loadPackage } from '../../harness/n8nCore/packageLoader';

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

	// resourceDescription() builds the Operation selectors, so n8n's lint, which checks a selector
	// written out in place, no longer sees their options: its other checks of them, on what n8n loads.
	it('gives every Operation selector distinct, described options and one of them as default', () => {
		const selectors = properties.filter((p) => p.name === 'operation');
		expect(selectors).toHaveLength(Object.keys(OPERATIONS).length);
		for (const selector of selectors) {
			const options = selector.options as INodePropertyOptions[];
			expect(new Set(options.map((o) => o.name)).size).toBe(options.length);
			expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
			expect(options.filter((o) => !o.description || o.description === o.name)).toEqual([]);
			expect(options.map((o) => o.value)).toContain(selector.default);
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

	// additionalFields() builds these collections, so n8n's lint, which checks a collection written
	// out in place, no longer sees their items: the same checks, on what n8n loads.
	it('gives every Additional Fields collection optional items, five or more alphabetised', () => {
		const collections = properties.filter((p) => p.name === 'additionalFields');
		expect(collections.length).toBeGreaterThan(0);
		for (const collection of collections) {
			const items = collection.options as INodeProperties[];
			expect(items.filter((item) => item.required === true)).toEqual([]);
			if (items.length < 5) continue;
			const names = items.map((item) => item.displayName);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
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

describe('trigger description', () => {
	let description: INodeTypeDescription;

	beforeAll(async () => {
		const loader = await loadPackage();
		description = loader.nodeTypes.affiliateTrackingTrigger.type
			.description as INodeTypeDescription;
	});

	it('is a polling trigger with the same credential', () => {
		expect(description).toMatchObject({
			name: 'affiliateTrackingTrigger',
			displayName: 'Affiliate Tracking Trigger',
			group: ['trigger'],
			polling: true,
			inputs: [],
			version: 1,
		});
		expect(description.credentials).toEqual([{ name: 'affiliateTrackingApi', required: true }]);
		const event = description.properties.find((p) => p.name === 'event');
		expect((event?.options as INodePropertyOptions[]).map((o) => o.value)).toEqual([
			'promoterBalanceChanged',
			'promoterResultsChanged',
		]);
	});

	it("offers the node's request options with the same defaults, and its own", () => {
		const options = description.properties.find((p) => p.name === 'options')
			?.options as INodeProperties[];
		expect(options.map((o) => o.displayName)).toEqual(
			[...options.map((o) => o.displayName)].sort(),
		);
		expect(Object.fromEntries(options.map((o) => [o.name, o.default]))).toEqual({
			concurrency: DEFAULT_CONCURRENCY,
			figures: [],
			maxPromoters: DEFAULT_MAX_PROMOTERS,
			maxRetries: DEFAULT_REQUEST_SETTINGS.maxRetries,
			retryDelay: DEFAULT_REQUEST_SETTINGS.retryDelayMs,
			timeout: DEFAULT_REQUEST_SETTINGS.timeoutMs,
		});
	});
});

describe('payment webhook trigger description', () => {
	let description: INodeTypeDescription;
	let loader: Awaited<ReturnType<typeof loadPackage>>;

	beforeAll(async () => {
		loader = await loadPackage();
		description = loader.nodeTypes.paymentWebhookTrigger.type.description as INodeTypeDescription;
	});

	it('is a webhook trigger with its own signing credential and no provider API key', () => {
		expect(description).toMatchObject({
			name: 'paymentWebhookTrigger',
			displayName: 'Payment Webhook Trigger',
			group: ['trigger'],
			inputs: [],
			version: 1,
		});
		expect(description.polling).toBeUndefined();
		expect(description.credentials).toEqual([
			{ name: 'paymentWebhookSigningApi', required: true, testedBy: 'signingSecretFormat' },
		]);
		expect(description.webhooks).toEqual([
			expect.objectContaining({
				name: 'default',
				httpMethod: 'POST',
				responseMode: '={{$parameter["responseMode"]}}',
				path: 'webhook',
			}),
		]);
		const credential = loader.credentialTypes.paymentWebhookSigningApi.type;
		expect(credential.displayName).toBe('Payment Webhook Signing API');
		expect(credential.properties.map((p) => [p.name, p.typeOptions?.password])).toEqual([
			['signingSecret', true],
		]);
	});

	it('offers the five providers, an events list for each, and the response modes', () => {
		const values = (property: INodeProperties | undefined) =>
			(property?.options as INodePropertyOptions[]).map((o) => o.value);
		const provider = description.properties.find((p) => p.name === 'provider');
		expect(provider?.noDataExpression).toBe(true);
		expect(values(provider)).toEqual([
			'creem',
			'lemonSqueezy',
			'paddle',
			'standardWebhooks',
			'stripe',
		]);
		const events = description.properties.filter((p) => p.name === 'events');
		expect(
			Object.fromEntries(events.map((p) => [p.displayOptions?.show?.provider?.[0], p.default])),
		).toEqual({
			stripe: [
				'checkout.session.completed',
				'payment_intent.succeeded',
				'invoice.paid',
				'charge.refunded',
				'refund.created',
			],
			paddle: ['transaction.completed', 'adjustment.created', 'adjustment.updated'],
			lemonSqueezy: ['order_created', 'order_refunded'],
			standardWebhooks: ['order.paid', 'order.refunded'],
			creem: ['checkout.completed', 'refund.created'],
		});
		for (const property of events) expect(values(property)).toContain('*');
		expect(values(description.properties.find((p) => p.name === 'responseMode'))).toEqual([
			'onReceived',
			'lastNode',
			'responseNode',
		]);
	});
});
