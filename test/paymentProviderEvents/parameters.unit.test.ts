/**
 * Payment Provider Events' parameters (nodes/PaymentProviderEvents/description.ts and
 * settings.ts): the names of the contract, their defaults and bounds, and every refusal made
 * before any request, naming the parameter.
 */
import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type INodeProperties,
} from 'n8n-workflow';

import { apis, CREDENTIALS, runNode, useProviderApis } from './harness';
import { PaymentProviderEvents } from '../../nodes/PaymentProviderEvents/PaymentProviderEvents.node';
import { BOUNDS } from '../../nodes/PaymentProviderEvents/description';
import { apiBaseUrlProblem } from '../../nodes/PaymentProviderEvents/settings';
import { httpAnswer } from '../../support/fakes/fakeContext';
import { scenario } from '../../support/scenarios';

useProviderApis();

const { description } = new PaymentProviderEvents();
const property = (name: string) =>
	description.properties.find((candidate) => candidate.name === name) as INodeProperties;

type Provider = 'stripe' | 'paddle' | 'appStore';
const NAMES: Record<Provider, string> = {
	stripe: 'Stripe',
	paddle: 'Paddle Billing',
	appStore: 'Apple App Store',
};

/** The run's error, and how many requests it sent (to the emulator or scripted). */
async function refused(
	provider: Provider,
	parameters: object,
	credentials: ICredentialDataDecryptedObject = CREDENTIALS[provider],
) {
	let sent = 0;
	const error = await runNode(provider, {
		parameters: { ...parameters },
		credentials,
		respond: () => {
			sent++;
			return httpAnswer(200, { data: [], has_more: false });
		},
	}).catch((caught: unknown) => caught);
	return { error: error as NodeOperationError, sent };
}

describe(scenario('paymentEvents.parameters'), () => {
	it('is the node of the contract: paymentProviderEvents, version 1, one input, one output', () => {
		expect(description).toMatchObject({
			name: 'paymentProviderEvents',
			displayName: 'Payment Provider Events',
			group: ['input'],
			version: 1,
			inputs: ['main'],
			outputs: ['main'],
		});
	});

	it('has the parameters of the brief, with their defaults and bounds', () => {
		expect(description.properties.map(({ name }) => name)).toEqual([
			'cursorNotice',
			'provider',
			'environment',
			'cursor',
			'firstRunDays',
			'overlapMinutes',
			'maxEvents',
			'options',
		]);
		expect(property('provider').options).toEqual([
			expect.objectContaining({ name: 'Apple App Store', value: 'appStore' }),
			expect.objectContaining({ name: 'Paddle Billing', value: 'paddle' }),
			expect.objectContaining({ name: 'Stripe', value: 'stripe' }),
		]);
		expect(property('provider').default).toBe('stripe');
		expect(property('cursor')).toMatchObject({ displayName: 'Start After', default: '' });
		for (const name of ['firstRunDays', 'overlapMinutes', 'maxEvents'] as const) {
			expect([name, property(name).default, property(name).typeOptions]).toEqual([
				name,
				BOUNDS[name].default,
				{ minValue: BOUNDS[name].min, maxValue: BOUNDS[name].max, numberPrecision: 0 },
			]);
		}
		expect(BOUNDS).toEqual({
			firstRunDays: { default: 3, min: 1, max: 30 },
			overlapMinutes: { default: 10, min: 0, max: 1440 },
			maxEvents: { default: 1000, min: 1, max: 10000 },
		});
		expect(property('environment')).toMatchObject({
			default: 'Production',
			displayOptions: { show: { provider: ['appStore'] } },
		});
		expect(property('options').options).toEqual([
			expect.objectContaining({ name: 'apiBaseUrl', displayName: 'API Base URL', default: '' }),
		]);
	});

	it('reads with one credential for every provider, tested by the node offline', () => {
		expect(description.credentials).toEqual([
			{ name: 'paymentProviderApi', required: true, testedBy: 'paymentProviderApi' },
		]);
		expect(typeof new PaymentProviderEvents().methods.credentialTest.paymentProviderApi).toBe(
			'function',
		);
	});

	it.each(
		(['stripe', 'paddle', 'appStore'] as const).flatMap((provider) =>
			(['stripe', 'paddle', 'appStore'] as const)
				.filter((other) => other !== provider)
				.map((other) => [provider, other] as const),
		),
	)(
		'Provider %s with a credential for %s: refused before any request, naming both',
		async (provider, other) => {
			const { error, sent } = await refused(provider, {}, CREDENTIALS[other]);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				`The Payment Provider API credential is for ${NAMES[other]}, but Provider is ${NAMES[provider]}: pick a credential for ${NAMES[provider]}`,
			);
			expect(error.description).toMatch(/^Nothing was requested\./);
			expect(error.context.itemIndex).toBe(0);
			expect(sent).toBe(0);
		},
	);

	it("a credential without Provider is Stripe's (the field's default); one of an unknown provider is refused", async () => {
		const { secretKey } = CREDENTIALS.stripe;
		const { requests } = await runNode('stripe', {
			credentials: { secretKey },
			parameters: { cursor: '1:evt_1' },
			respond: () => httpAnswer(200, { data: [], has_more: false }),
		});
		expect(requests).toHaveLength(1);
		const paddle = await refused('paddle', {}, { secretKey });
		expect(paddle.error.message).toMatch(/^The Payment Provider API credential is for Stripe, /);
		expect(paddle.sent).toBe(0);
		const unknown = await refused('stripe', {}, { provider: 'paypal', secretKey });
		expect(unknown.error.message).toBe(
			'The Payment Provider API credential is for an unknown provider ("paypal"), but Provider is Stripe: pick a credential for Stripe',
		);
		expect(unknown.sent).toBe(0);
	});

	it.each([
		['http on another host', 'http://proxy.example.com', 'must use https://'],
		['another scheme', 'ftp://127.0.0.1', 'must use https://'],
		['no URL', 'api.stripe.com', 'must be a URL'],
		['a query', 'https://proxy.example.com/?key=1', 'without query'],
		['a user', 'https://user:pw@proxy.example.com', 'without query, fragment or user'],
	])(
		'API Base URL with %s: refused before any request, naming the parameter',
		async (_, url, rule) => {
			for (const provider of ['stripe', 'paddle', 'appStore'] as const) {
				const { error, sent } = await refused(provider, { options: { apiBaseUrl: url } });
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error.message).toMatch(/^Parameter "API Base URL" /);
				expect(error.message).toContain(rule);
				expect(sent).toBe(0);
			}
			expect(apis.calls('stripe') + apis.calls('paddle') + apis.calls('appStore')).toBe(0);
		},
	);

	it.each([
		'https://proxy.example.com',
		'https://proxy.example.com/stripe/',
		'http://127.0.0.1:8080',
		'http://localhost:8080/base',
	])('API Base URL %s: accepted, the path kept, the trailing slash dropped', async (url) => {
		expect(apiBaseUrlProblem(url)).toBeNull();
		const { requests } = await runNode('stripe', {
			parameters: { cursor: '1:evt_1', options: { apiBaseUrl: url } },
			respond: () => httpAnswer(200, { data: [], has_more: false }),
		});
		expect(requests[0].url.startsWith(`${url.replace(/\/$/, '')}/v1/events?`)).toBe(true);
	});

	it('without API Base URL, the provider’s own host', async () => {
		const { requests } = await runNode('stripe', {
			parameters: { cursor: '1:evt_1', options: {} },
			respond: () => httpAnswer(200, { data: [], has_more: false }),
		});
		expect(requests[0].url.startsWith('https://api.stripe.com/v1/events?')).toBe(true);
	});

	it.each([
		['cursor', 'evt_1', 'Start After', 'must be empty or the cursor of an item this node emitted'],
		['cursor', '1764000000000', 'Start After', '<timeMs>:<event id>'],
		['firstRunDays', 0, 'First Run Days', 'from 1 to 30'],
		['firstRunDays', 31, 'First Run Days', 'from 1 to 30'],
		['firstRunDays', 2.5, 'First Run Days', 'whole number'],
		['overlapMinutes', -1, 'Overlap (Minutes)', 'from 0 to 1440'],
		['overlapMinutes', 1441, 'Overlap (Minutes)', 'from 0 to 1440'],
		['maxEvents', 0, 'Max Events', 'from 1 to 10000'],
		['maxEvents', 10001, 'Max Events', 'from 1 to 10000'],
		['maxEvents', '100', 'Max Events', 'whole number'],
		['provider', 'paypal', 'Provider', 'must be one of stripe, paddle, appStore'],
	])('%s %j: refused before any request, naming %s', async (name, value, label, rule) => {
		const { error, sent } = await refused('stripe', { [name]: value });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(new RegExp(`^Parameter "${label.replace(/[()]/g, '\\$&')}" `));
		expect(error.message).toContain(rule);
		expect(error.context.itemIndex).toBe(0);
		expect(sent).toBe(0);
	});

	it('Start After with spaces around it: read without them', async () => {
		const { requests } = await runNode('stripe', {
			parameters: { cursor: '  1764000000000:evt_1  ' },
			respond: () => httpAnswer(200, { data: [], has_more: false }),
		});
		expect(new URL(requests[0].url).searchParams.get('ending_before')).toBe('evt_1');
	});

	it('First Run Days sets where a first run starts', async () => {
		for (const days of [1, 30]) {
			const { requests } = await runNode('stripe', {
				parameters: { firstRunDays: days },
				respond: () => httpAnswer(200, { data: [], has_more: false }),
			});
			const before = Number(new URL(requests[0].url).searchParams.get('created[lt]'));
			expect(Math.abs(before - (Date.now() / 1000 - days * 86400))).toBeLessThan(60);
		}
	});
});
