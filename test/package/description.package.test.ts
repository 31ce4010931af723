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
import { scenario } from '../../support/scenarios';

let loader: Awaited<ReturnType<typeof loadPackage>>;
beforeAll(async () => (loader = await loadPackage()));
const describedAs = (node: string) =>
	loader.nodeTypes[node].type.description as INodeTypeDescription;
/** The values a selector offers. */
const values = (property: INodeProperties | undefined) =>
	(property?.options as INodePropertyOptions[]).map((o) => o.value);
/** The description of `node`, read in the describe block that calls this once the package is loaded. */
function descriptionOf(node: string): () => INodeTypeDescription {
	let description: INodeTypeDescription;
	beforeAll(() => (description = describedAs(node)));
	return () => description;
}
/** What every trigger of the package is: named, in n8n's trigger group, with no inputs. */
const trigger = (name: string, displayName: string) => ({
	name,
	displayName,
	group: ['trigger'],
	inputs: [],
});

describe(scenario('package.description'), () => {
	let description: INodeTypeDescription;
	let properties: INodeProperties[];

	beforeAll(() => {
		description = describedAs('affiliateTracking');
		properties = description.properties;
	});

	it('keeps the names of the design contract', () => {
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

	// n8n's lint checks a collection's items (optional; alphabetised from five on) only where the
	// collection is written out with its items; the operations build theirs with additionalFields().
	it('gives every Additional Fields collection optional items only, alphabetised', () => {
		const collections = properties.filter((p) => p.name === 'additionalFields');
		expect(collections.length).toBeGreaterThan(0);
		for (const collection of collections) {
			const items = collection.options as INodeProperties[];
			expect(items.filter((item) => item.required === true)).toEqual([]);
			const names = items.map((item) => item.displayName);
			if (names.length >= 5) expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
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

describe(scenario('pollingTrigger.description'), () => {
	const description = descriptionOf('affiliateTrackingTrigger');

	it('is a polling trigger with the same credential', () => {
		expect(description()).toMatchObject({
			...trigger('affiliateTrackingTrigger', 'Affiliate Tracking Trigger'),
			polling: true,
			version: 1,
		});
		expect(description().credentials).toEqual([{ name: 'affiliateTrackingApi', required: true }]);
		expect(values(description().properties.find((p) => p.name === 'event'))).toEqual([
			'promoterBalanceChanged',
			'promoterResultsChanged',
		]);
	});

	it("offers the node's request options with the same defaults, and its own", () => {
		const options = description().properties.find((p) => p.name === 'options')
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

describe(scenario('paymentWebhook.description'), () => {
	const description = descriptionOf('paymentWebhookTrigger');

	it('is a webhook trigger with its own signing credential, and an API key only for the provider that reads its API', () => {
		expect(description()).toMatchObject({
			...trigger('paymentWebhookTrigger', 'Payment Webhook Trigger'),
			// Saved workflows at version 1 keep working; new ones get 2, which answers the same
			// (test/paymentWebhook/webhook.engine.test.ts runs both).
			version: [1, 2],
			defaultVersion: 2,
		});
		expect(description().polling).toBeUndefined();
		expect(description().credentials).toEqual([
			{ name: 'paymentWebhookSigningApi', required: true, testedBy: 'signingSecretFormat' },
			// Google Play's notifications lack the order, user and price: read from its API.
			{
				name: 'googlePlayApi',
				required: true,
				testedBy: 'providerApiCredential',
				displayOptions: { show: { provider: ['googlePlay'] } },
			},
		]);
		expect(description().webhooks).toEqual([
			expect.objectContaining({
				name: 'default',
				httpMethod: 'POST',
				responseMode: '={{$parameter["responseMode"]}}',
				path: 'webhook',
			}),
		]);
		// The signing credential's fields and test: test/paymentWebhook/webhook.unit.test.ts.
		expect(loader.credentialTypes.paymentWebhookSigningApi).toBeDefined();
	});

	// Each provider's Events parameter and its defaults: test/paymentWebhook/events.unit.test.ts.
	it('offers every registered provider, an events list for each, the response modes and the options', () => {
		const byName = (name: string) => description().properties.filter((p) => p.name === name);
		const [provider] = byName('provider');
		expect(provider).toMatchObject({ noDataExpression: true, default: 'stripe' });
		const providers = PROVIDERS.map(({ id }) => id).sort();
		expect([...values(provider)].sort()).toEqual(providers);
		expect(
			byName('events')
				.map((p) => p.displayOptions?.show?.provider)
				.sort(),
		).toEqual(providers.map((id) => [id]));
		const [responseMode] = byName('responseMode');
		expect(values(responseMode)).toEqual(['onReceived', 'lastNode', 'responseNode']);
		expect(responseMode.default).toBe('onReceived');
		const options = byName('options')[0].options as INodeProperties[];
		expect(Object.fromEntries(options.map((o) => [o.name, o.default]))).toEqual({
			toleranceSeconds: 300,
			userIdMetadataKey: 'user_id',
		});
	});
});
