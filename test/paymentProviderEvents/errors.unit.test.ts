/**
 * What Payment Provider Events makes of a failed request (nodes/PaymentProviderEvents/
 * transport.ts) and how its runs pair with their input items: 401 and 403 name the credential,
 * other statuses keep the provider's message, Continue On Fail gives an error item per input item.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CREDENTIALS, DAY, paymentEvents, record, runNode, useProviderApis } from './harness';
import { providerMessageOf } from '../../nodes/PaymentProviderEvents/transport';
import { httpAnswer, networkError } from '../../support/fakes/fakeContext';
import { scenario } from '../../support/scenarios';

useProviderApis();

const failure = async (run: Promise<unknown>) => await run.catch((caught: unknown) => caught);

describe(scenario('paymentEvents.errors'), () => {
	it('Stripe refuses the key: 401, naming the Payment Provider API credential and what to check', async () => {
		const error = await failure(
			runNode('stripe', {
				credentials: { ...CREDENTIALS.stripe, secretKey: 'rk_test_dummy_not_this_one' },
			}),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error).toMatchObject({
			httpCode: '401',
			message: expect.stringMatching(
				/^Stripe refused the Payment Provider API credential \(HTTP 401\): Invalid API Key provided: /,
			),
		});
		expect((error as NodeApiError).description).toContain(
			'Check the Payment Provider API credential',
		);
		expect((error as NodeApiError).context.itemIndex).toBe(0);
	});

	it.each([
		[
			'Stripe',
			'stripe',
			400,
			{ error: { type: 'invalid_request_error', message: 'Invalid integer: x' } },
			'Stripe answered HTTP 400: Invalid integer: x',
		],
		[
			'Paddle',
			'paddle',
			500,
			{ error: { type: 'api_error', code: 'internal_error', detail: 'Something went wrong.' } },
			'Paddle Billing answered HTTP 500: Something went wrong.',
		],
		[
			'Apple',
			'appStore',
			400,
			{ errorCode: 4000000, errorMessage: 'startDate must be no more than 180 days in the past.' },
			'Apple App Store answered HTTP 400: startDate must be no more than 180 days in the past.',
		],
		['a text answer', 'stripe', 502, 'Bad Gateway', 'Stripe answered HTTP 502: Bad Gateway'],
	] as const)(
		'%s: HTTP %s keeps its message and status',
		async (_, provider, status, body, message) => {
			const error = await failure(
				runNode(provider, {
					parameters: { cursor: '1:evt_1' },
					credentials: provider === 'appStore' ? { ...CREDENTIALS.appStore } : undefined,
					respond: () => httpAnswer(status, body),
				}),
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error).toMatchObject({ httpCode: String(status), message });
		},
	);

	it('the provider unreachable: an error naming it and the host to check', async () => {
		const error = await failure(
			runNode('paddle', {
				parameters: { cursor: '1:evt_1' },
				respond: () => {
					throw networkError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9');
				},
			}),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe('Paddle Billing could not be reached');
		expect((error as NodeOperationError).description).toMatch(
			/^GET http:\/\/127\.0\.0\.1:\d+\/paddle\/events: connect ECONNREFUSED 127\.0\.0\.1:9\. Check the host/,
		);
	});

	it('an answer that is no event list (a wrong API Base URL): named, nothing emitted', async () => {
		const error = await failure(
			runNode('stripe', {
				parameters: { cursor: '1:evt_1' },
				respond: () => httpAnswer(200, '<html>proxy login</html>'),
			}),
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe('Stripe answered without a "data" list');
	});

	it('an event without what places it is named, never skipped', async () => {
		const error = await failure(
			runNode('paddle', {
				parameters: { cursor: '1:evt_1' },
				respond: () =>
					httpAnswer(200, {
						data: [{ event_id: 'evt_1x', event_type: 'transaction.completed' }],
						meta: { pagination: { has_more: false } },
					}),
			}),
		);
		expect((error as Error).message).toBe(
			'Paddle Billing listed an event without an occurred_at time (evt_1x)',
		);
	});

	it.each([
		['stripe', { ...CREDENTIALS.stripe, secretKey: 'rk_test_dummy_not_this_one' }],
		['paddle', { ...CREDENTIALS.paddle, apiKey: 'pdl_sdbx_apikey_dummy_not_this_one' }],
	] as const)(
		'%s under Continue On Fail: each input item its error item, paired, the run goes on',
		async (provider, credentials) => {
			const { output } = await runNode(provider, {
				credentials,
				items: 2,
				onError: 'continueRegularOutput',
			});
			expect(output[0]).toHaveLength(2);
			output[0].forEach((item, index) => {
				expect(item.pairedItem).toEqual({ item: index });
				expect(item.json).toMatchObject({
					error: expect.stringContaining('credential'),
					httpCode: expect.stringMatching(/^40[13]$/),
				});
			});
		},
	);

	it('to the error output, the error item holds everything under `error`', async () => {
		const { output } = await runNode('stripe', {
			credentials: { ...CREDENTIALS.stripe, secretKey: 'rk_test_dummy_not_this_one' },
			onError: 'continueErrorOutput',
		});
		expect(output[0][0].json).toEqual({
			error: expect.objectContaining({
				message: expect.stringContaining('HTTP 401'),
				httpCode: '401',
			}),
		});
	});

	it('two input items: each reads on its own, its items paired with it', async () => {
		const events = paymentEvents('stripe', 5, Date.now() - DAY);
		record('stripe', events);
		const cursors = ['1:', `1:${String(events[2].id)}`];
		const { output } = await runNode('stripe', {
			items: 2,
			parameters: (itemIndex) => ({ cursor: cursors[itemIndex] }),
		});
		expect(output[0].map((item) => [item.pairedItem, item.json.eventId])).toEqual([
			...events.map((event) => [{ item: 0 }, event.id]),
			...events.slice(3).map((event) => [{ item: 1 }, event.id]),
		]);
	});

	it.each([
		[{ error: { message: 'm1' } }, 'm1'],
		[{ error: { detail: 'd1', code: 'c' } }, 'd1'],
		[{ errorCode: 1, errorMessage: 'e1' }, 'e1'],
		[{ message: 'plain' }, 'plain'],
		[{ error: 'flat' }, 'flat'],
		[{}, null],
		['', null],
	])("the provider's message of %j: %s", (body, message) => {
		expect(providerMessageOf(body)).toBe(message);
	});
});
