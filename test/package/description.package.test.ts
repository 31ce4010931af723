/**
 * The node and credential as n8n loads them from dist/: names of the design contract, n8n's
 * description conventions, and option defaults that match the transport's.
 */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../../nodes/shared/helpers/runOptions';
import { DEFAULT_REQUEST_SETTINGS } from '../../nodes/shared/transport/requestSettings';
import { DEFAULT_MAX_PROMOTERS } from '../../nodes/AffiliateTrackingTrigger/AffiliateTrackingTrigger.node';
import { OPERATIONS } from '../../nodes/AffiliateTracking/actions/router';
import { PROVIDERS } from '../../nodes/PaymentWebhookTrigger/providers';
import { loadPackage } from '../../support/n8n/core/packageLoader';

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

	it("offers exactly the router's resources and, per resource, its operations", () => {
		const values = (property: INodeProperties | undefined) =>
			(property?.options as INodePropertyOptions[]).map((o) => o.value);
		expect(values(properties.find((p) => p.name === 'resource'))).toEqual(Object.keys(OPERATIONS));
		const selectors = properties.filter((p) => p.name === 'operation');
		expect(selectors).toHaveLength(Object.keys(OPERATIONS).length);
		for (const [resource, operations] of Object.entries(OPERATIONS)) {
			const selector = selectors.find((p) => p.displayOptions?.show?.resource?.[0] === resource);
			expect([resource, values(selector)]).toEqual([resource, Object.keys(operations)]);
		}
	});

	// n8n's lint checks the order of a selector's options only from five options on, and a
	// description only for differing from the name, not for being there.
	it('lists every Operation selector alphabetised, each option with a description', () => {
		for (const selector of properties.filter((p) => p.name === 'operation')) {
			const options = selector.options as INodePropertyOptions[];
			const names = options.map((o) => o.name);
			expect(names).toEqual([...names].sort());
			expect(options.filter((o) => !o.description)).toEqual([]);
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

	// n8n's lint checks that items written out in a collection are optional, not items it lists by
	// name (Extra Body Fields, shared by two operations).
	it('gives every Additional Fields collection optional items only', () => {
		const collections = properties.filter((p) => p.name === 'additionalFields');
		expect(collections.length).toBeGreaterThan(0);
		for (const collection of collections) {
			const items = collection.options as INodeProperties[];
			expect(items.filter((item) => item.required === true)).toEqual([]);
		}
	});

	// The Options list their items by name, which n8n's lint does not follow into: their order is
	// checked here.
	it('gives the Options the transport defaults, alphabetised', () => {
		const options = properties.find((p) => p.name === 'options')?.options as INodeProperties[];
		const names = options.map((o) => o.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
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
			// Saved workflows at version 1 keep working; new ones get 2, which answers the same
			// (test/paymentWebhook/webhook.engine.test.ts runs both).
			version: [1, 2],
			defaultVersion: 2,
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
		expect(credential.properties.map((p) => [p.name, p.typeOptions?.password ?? false])).toEqual([
			['signingSecret', true],
			['publicKey', false],
			['publicKeyId', false],
			['decryptionSecret', true],
			['rootCertificate', true],
		]);
	});

	it('offers every registered provider, an events list for each, and the response modes', () => {
		const values = (property: INodeProperties | undefined) =>
			(property?.options as INodePropertyOptions[]).map((o) => o.value);
		const provider = description.properties.find((p) => p.name === 'provider');
		expect(provider?.noDataExpression).toBe(true);
		expect(values(provider).sort()).toEqual(PROVIDERS.map(({ id }) => id).sort());
		const events = description.properties.filter((p) => p.name === 'events');
		expect(
			Object.fromEntries(events.map((p) => [p.displayOptions?.show?.provider?.[0], p.default])),
		).toEqual(Object.fromEntries(PROVIDERS.map(({ id, events }) => [id, Object.keys(events)])));
		for (const property of events) expect(values(property)).toContain('*');
		expect(values(description.properties.find((p) => p.name === 'responseMode'))).toEqual([
			'onReceived',
			'lastNode',
			'responseNode',
		]);
	});
});
