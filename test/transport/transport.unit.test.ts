/** The transport's decisions, on the sources with a scripted HTTP helper. */
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { OperationKind } from '../../nodes/shared/transport/operationProfile';
import { apiRequest, redirectRequest, type ApiCall } from '../../nodes/shared/transport';
import { ERROR_CONTEXT, SERVER_MESSAGES } from '../../nodes/shared/transport/errors';
import {
	DEFAULT_REQUEST_SETTINGS,
	type RequestSettings,
} from '../../nodes/shared/transport/requestSettings';
import { TIMESTAMP_HEADER } from '../../nodes/shared/transport/requestSigner';
import {
	envelope,
	fakeContext,
	httpAnswer,
	networkError,
	TEST_CREDENTIALS,
	type Responder,
} from '../../support/fakes/fakeContext';
import { scenario } from '../../support/scenarios';
import { sha256 } from './knownAnswers';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => {}),
}));
const sleepMock = sleep as jest.MockedFunction<typeof sleep>;

const call = (kind: OperationKind, extra: Partial<ApiCall> = {}): ApiCall => ({
	method: 'POST',
	path: '/track/refund',
	body: { transaction_id: 't1' },
	operation: {
		action: `A ${kind} operation`,
		kind,
		key: { displayName: 'User ID', name: 'userId' },
	},
	...extra,
});

const OK = envelope(0, 'success', { status: 'APPLIED' });

/** Sends one call under `settings` (over the defaults); returns the outcome and the requests. */
async function send(
	apiCall: ApiCall,
	respond: Responder,
	settings: Partial<RequestSettings> = { maxRetries: 2, retryDelayMs: 100 },
	credentials = TEST_CREDENTIALS,
) {
	const fake = fakeContext({ parameters: {}, respond, credentials });
	let error: (NodeApiError | NodeOperationError) | undefined;
	let data: unknown;
	try {
		data = await apiRequest(fake.context, apiCall, 0, { ...DEFAULT_REQUEST_SETTINGS, ...settings });
	} catch (caught) {
		error = caught as NodeApiError | NodeOperationError;
	}
	return { data, error, ...fake };
}

beforeEach(() => sleepMock.mockClear());

describe(scenario('transport.requestAsSent'), () => {
	it('POSTs the body serialized once, with the timestamp header and no redirects followed', async () => {
		const { data, requests } = await send(call('write'), () => OK, { timeoutMs: 1234 });
		expect(data).toEqual({ status: 'APPLIED' });
		expect(requests).toHaveLength(1);
		const [request] = requests;
		expect(request).toMatchObject({
			method: 'POST',
			url: 'https://api.example.com/api/open/v1/track/refund',
			body: '{"transaction_id":"t1"}',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: 1234,
		});
		expect(request.headers?.['Content-Type']).toBe('application/json');
		expect(Number(request.headers?.[TIMESTAMP_HEADER])).toBeCloseTo(Date.now() / 1000, -1);
	});

	it('GETs with the query written into the URL and no body', async () => {
		const { requests } = await send(
			call('read', {
				method: 'GET',
				path: '/promoters/u%201/statistics',
				body: undefined,
				query: { start_date: '2026-03-01', end_date: undefined },
			}),
			() => envelope(0, 'success', {}),
		);
		expect(requests[0].url).toBe(
			'https://api.example.com/api/open/v1/promoters/u%201/statistics?start_date=2026-03-01',
		);
		expect(requests[0].body).toBeUndefined();
	});
});

describe(scenario('transport.retries'), () => {
	type Outcome = 'notProcessed' | 'maybeProcessed' | 'retryAllowed';
	const failures: Array<[string, Responder, string, Outcome]> = [
		[
			'connection refused',
			() => Promise.reject(networkError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8787')),
			// n8n's own wording for a message that names ECONNREFUSED.
			'The service refused the connection - perhaps it is offline',
			'notProcessed',
		],
		[
			'HTTP 429',
			() => httpAnswer(429),
			'The service is rate limiting requests (HTTP 429)',
			'notProcessed',
		],
		[
			'a timeout',
			() => Promise.reject(networkError('ECONNABORTED', 'timeout of 100ms exceeded')),
			'The service did not answer within 30000 ms',
			'maybeProcessed',
		],
		[
			'a dropped connection',
			() => Promise.reject(networkError('ECONNRESET', 'socket hang up')),
			'The connection to the service failed: socket hang up',
			'maybeProcessed',
		],
		[
			'HTTP 502',
			() => httpAnswer(502, '<html>Bad Gateway</html>'),
			'The service answered HTTP 502 instead of an API response',
			'maybeProcessed',
		],
		[
			'a cut-off body',
			() => httpAnswer(200, '{"code":0,"mess'),
			'The service answered with a body that is not a JSON API response',
			'maybeProcessed',
		],
		[
			"the spec's retry-allowed server error",
			() => envelope(6000000, SERVER_MESSAGES.retryAllowed[0]),
			SERVER_MESSAGES.retryAllowed[0],
			'retryAllowed',
		],
	];
	const EXPECTED_REQUESTS: Record<Outcome, Record<OperationKind, number>> = {
		notProcessed: { read: 3, idempotentWrite: 3, write: 3 },
		maybeProcessed: { read: 3, idempotentWrite: 3, write: 1 },
		retryAllowed: { read: 3, idempotentWrite: 3, write: 1 },
	};

	describe.each(failures)('after %s', (_name, respond, message, outcome) => {
		it.each<OperationKind>(['read', 'idempotentWrite', 'write'])('a %s', async (kind) => {
			const { error, requests } = await send(call(kind), respond);
			expect(requests).toHaveLength(EXPECTED_REQUESTS[outcome][kind]);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error?.message).toBe(message);
			const notResent = outcome === 'maybeProcessed' && kind === 'write';
			if (notResent) {
				expect(error?.description).toBe(
					`The request may have reached the service, and A write operation is not safe to repeat, so it was not sent again. Check in the brand dashboard whether it was recorded before running this item again.`,
				);
			} else {
				expect(error?.description).toContain(`Tried ${requests.length} time(s).`);
			}
			// Only a write that may have reached the service may have been recorded.
			expect(error?.context[ERROR_CONTEXT.mayHaveBeenRecorded]).toBe(
				outcome === 'maybeProcessed' && kind !== 'read' ? true : undefined,
			);
		});
	});

	it('recovers when a retry succeeds', async () => {
		const { data, requests } = await send(call('read'), (_options, n) =>
			n === 1 ? httpAnswer(503) : OK,
		);
		expect(data).toEqual({ status: 'APPLIED' });
		expect(requests).toHaveLength(2);
	});

	it('Max Retries 0 sends once', async () => {
		const { requests } = await send(call('read'), () => httpAnswer(503), { maxRetries: 0 });
		expect(requests).toHaveLength(1);
	});
});

describe(scenario('transport.waits'), () => {
	it('backs off exponentially with jitter from Retry Delay', async () => {
		await send(call('read'), () => httpAnswer(503), { maxRetries: 3, retryDelayMs: 100 });
		const waits = sleepMock.mock.calls.map(([ms]) => ms);
		expect(waits).toHaveLength(3);
		[100, 200, 400].forEach((ceiling, retry) => {
			expect(waits[retry]).toBeGreaterThanOrEqual(ceiling / 2);
			expect(waits[retry]).toBeLessThanOrEqual(ceiling);
		});
	});

	it.each([
		['seconds', '2', 2000],
		['a long wait, capped at 60 s', '3600', 60_000],
	])("honours a 429's Retry-After in %s", async (_name, retryAfter, expectedMs) => {
		const { data } = await send(
			call('write'),
			(_options, n) => (n === 1 ? httpAnswer(429, '', { 'retry-after': retryAfter }) : OK),
			{ retryDelayMs: 1 },
		);
		expect(data).toEqual({ status: 'APPLIED' });
		expect(sleepMock.mock.calls).toEqual([[expectedMs]]);
	});

	it("honours a 429's Retry-After given as a date", async () => {
		const inFiveSeconds = new Date(Date.now() + 5000).toUTCString();
		await send(call('write'), (_options, n) =>
			n === 1 ? httpAnswer(429, '', { 'retry-after': inFiveSeconds }) : OK,
		);
		const [[waited]] = sleepMock.mock.calls;
		expect(waited).toBeGreaterThan(3000);
		expect(waited).toBeLessThanOrEqual(5000);
	});
});

describe(scenario('transport.clockSkew'), () => {
	const expired = (serverAheadS: number) =>
		envelope(1000004, SERVER_MESSAGES.timestampExpired, null, {
			date: new Date(Date.now() + serverAheadS * 1000).toUTCString(),
		});
	// Each test its own host: the learned skew is kept per service.
	const writeTo = async (host: string, respond: Responder) =>
		await send(call('write'), respond, undefined, { ...TEST_CREDENTIALS, baseUrl: host });

	it("re-signs once with the service's time and says so in a hint", async () => {
		const host = 'https://skew-ahead.example.com';
		const first = await writeTo(host, (_options, n) => (n === 1 ? expired(600) : OK));
		expect(first.data).toEqual({ status: 'APPLIED' });
		expect(first.requests).toHaveLength(2);
		const [before, after] = first.requests.map((r) => Number(r.headers?.[TIMESTAMP_HEADER]));
		expect(after - before).toBeGreaterThanOrEqual(598);
		expect(after - before).toBeLessThanOrEqual(602);
		expect(first.hints).toEqual([
			{
				message: expect.stringMatching(
					/^The clock of this n8n host is (59\d|60\d) s behind the service/,
				),
				location: 'outputPane',
			},
		]);
		expect(sleepMock).not.toHaveBeenCalled();

		// The next execution against the same host signs with the learned time at once.
		const second = await writeTo(host, () => OK);
		expect(second.requests).toHaveLength(1);
		expect(Number(second.requests[0].headers?.[TIMESTAMP_HEADER])).toBeGreaterThanOrEqual(after);
		expect(second.hints).toEqual([]);
	});

	it('gives the error when the service sends no usable Date header', async () => {
		const { error, requests } = await writeTo('https://skew-nodate.example.com', () =>
			envelope(1000004, SERVER_MESSAGES.timestampExpired),
		);
		expect(requests).toHaveLength(1);
		expect(error?.message).toBe(SERVER_MESSAGES.timestampExpired);
		expect(error?.description).toContain('Local clock offset applied: 0 s.');
	});
});

describe(scenario('transport.envelopeErrors'), () => {
	it("keep the server's message and code, and add the remedy", async () => {
		const { error, requests } = await send(call('idempotentWrite'), () =>
			envelope(1000001, 'The conversion for the specified transaction was not found'),
		);
		expect(requests).toHaveLength(1);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toBe('The conversion for the specified transaction was not found');
		expect(error?.description).toBe(
			'Code 1000001. No conversion of this product carries this transaction ID. Check that it is exactly the ID sent with Track Purchase.',
		);
		expect(error?.context[ERROR_CONTEXT.envelopeCode]).toBe(1000001);
		expect((error as NodeApiError).httpCode).toBe('200');
	});

	it('a failed signature shows the string to sign without the secret', async () => {
		const { error, requests } = await send(call('write'), () =>
			envelope(1000004, SERVER_MESSAGES.signatureFailed),
		);
		expect(error?.description).toContain('Check that the API Secret belongs to this API Key');
		expect(error?.description).toContain('Signed with signature version v2. String to sign');
		// The string the credential signed for the request sent.
		const sent = requests[0];
		expect(error?.description).toContain(
			`PS-HMAC-SHA256\nPOST\n/api/open/v1/track/refund\n\n${sent.headers?.[TIMESTAMP_HEADER]}\n${sha256(String(sent.body))}`,
		);
		expect(JSON.stringify(error)).not.toContain(String(TEST_CREDENTIALS.apiSecret));
		expect(error?.description).not.toContain(String(TEST_CREDENTIALS.apiSecret));
	});

	it('a failed v1 signature shows the names and timestamp, with the secret replaced', async () => {
		const { error, requests } = await send(
			call('write', { body: { user_id: 'u1', email: 'a@b.co' } }),
			() => envelope(1000004, SERVER_MESSAGES.signatureFailed),
			undefined,
			{ ...TEST_CREDENTIALS, signatureVersion: 'v1' },
		);
		expect(error?.description).toContain('Signed with signature version v1');
		expect(error?.description).toContain(
			`email&user_id${requests[0].headers?.[TIMESTAMP_HEADER]}<API secret>`,
		);
		expect(JSON.stringify(error)).not.toContain(String(TEST_CREDENTIALS.apiSecret));
	});

	it('an expected one becomes the result the operation gives for it', async () => {
		const recover = (answer: { message: string }) =>
			SERVER_MESSAGES.alreadyExists.test(answer.message) ? { status: 'ALREADY_EXISTS' } : undefined;
		const recovered = await send(call('write', { recover }), () =>
			envelope(1000005, 'The conversion event already exists'),
		);
		expect(recovered.data).toEqual({ status: 'ALREADY_EXISTS' });
		const other = await send(call('write', { recover }), () =>
			envelope(1000005, 'The invite code is required'),
		);
		expect(other.error?.message).toBe('The invite code is required');
	});
});

describe(scenario('transport.notAnApiAnswer'), () => {
	it('a redirect where an envelope was expected names the Base URL', async () => {
		const { error } = await send(call('read'), () =>
			httpAnswer(302, '', { location: 'https://login.example.com' }),
		);
		expect(error?.message).toBe('The service answered HTTP 302 without an API response');
		expect(error?.description).toContain('Check the Base URL of the credential');
	});

	it("the redirect endpoint gives the Location of a 302, and the service's error otherwise", async () => {
		const redirectCall = call('idempotentWrite', { method: 'GET', body: undefined });
		const redirect = async (respond: Responder) =>
			await redirectRequest(
				fakeContext({ parameters: {}, respond }).context,
				redirectCall,
				0,
				DEFAULT_REQUEST_SETTINGS,
			);
		await expect(
			redirect(() => httpAnswer(302, '', { location: 'https://app.example.com/?ps_ref=A' })),
		).resolves.toBe('https://app.example.com/?ps_ref=A');
		await expect(
			redirect(() => envelope(1000001, 'The authorization target product does not exist')),
		).rejects.toThrow('The authorization target product does not exist');
	});
});

describe(scenario('transport.credentials'), () => {
	it('a plain http:// Base URL off loopback is refused before sending', async () => {
		const { error, requests } = await send(call('read'), () => OK, undefined, {
			...TEST_CREDENTIALS,
			baseUrl: 'http://api.example.com',
		});
		expect(requests).toHaveLength(0);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toContain('Base URL must use https://');
		expect(error?.description).toBe('Fix the Affiliate Tracking API credential.');
	});

	it('a plain http:// Promoter Center URL off loopback is refused before sending: its URL carries the session token', async () => {
		for (const [promoterCenterUrl, refusal] of [
			['http://promoter.example.com', 'Promoter Center URL must use https://'],
			['ftp://promoter.example.com', 'Promoter Center URL must start with https://'],
			['not a url', 'Promoter Center URL "not a url" is not a valid address'],
		]) {
			const { error, requests } = await send(call('read'), () => OK, undefined, {
				...TEST_CREDENTIALS,
				promoterCenterUrl,
			});
			expect(requests).toHaveLength(0);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error?.message).toContain(refusal);
		}
		// A local sandbox's, and none at all, are taken.
		for (const promoterCenterUrl of ['http://127.0.0.1:8080/promoter-center', '', '  '])
			expect(
				(await send(call('read'), () => OK, undefined, { ...TEST_CREDENTIALS, promoterCenterUrl }))
					.error,
			).toBeUndefined();
	});

	it('are read once per execution, however many requests', async () => {
		const fake = fakeContext({ parameters: {}, respond: () => OK });
		const getCredentials = jest.spyOn(fake.context, 'getCredentials');
		await Promise.all(
			[0, 1, 2].map((item) =>
				apiRequest(fake.context, call('read'), item, DEFAULT_REQUEST_SETTINGS),
			),
		);
		expect(fake.requests).toHaveLength(3);
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});
});
