/**
 * Faults injected in the sandbox, per operation class: a recovery after retry, or one clear
 * error item; never a lost item, never a refund applied twice.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../../support/n8n/core/runWorkflow';
import { singleNodeWorkflow } from '../../support/n8n/core/workflows';
import { printTable } from '../../support/testing/report';
import {
	allCredentials,
	answerLostOnce,
	fastRetries,
	PAST_TIMEOUT_MS,
	TIMED_OUT,
	useSandbox,
	waitUntil,
} from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';

type FaultKind = 'latency' | 'http5xx' | 'rateLimit' | 'malformedJson' | 'drop' | 'appError';
type Outcome = 'recovered' | 'error';

const TEST_OPTIONS = fastRetries(1);

interface OperationClass {
	name: string;
	match: 'promoterRead' | 'refund' | 'promoterLogin' | 'conversion';
	parameters: INodeParameters;
}

const CLASSES: OperationClass[] = [
	{
		name: 'promoter read (Get Promoter)',
		match: 'promoterRead',
		parameters: { resource: 'promoter', operation: 'get', userId: 'user_1001' },
	},
	{
		name: 'Refund',
		match: 'refund',
		parameters: { resource: 'conversion', operation: 'refund', transactionId: 'txn_1001' },
	},
	{
		name: 'Promoter Login',
		match: 'promoterLogin',
		parameters: { resource: 'promoter', operation: 'login', userId: 'fault_user' },
	},
	{
		name: 'Track Purchase (not safe to repeat)',
		match: 'conversion',
		parameters: {
			resource: 'conversion',
			operation: 'trackPurchase',
			invitedUserId: 'buyer_1',
			transactionId: 'order_fault',
			conversionValue: 10,
		},
	},
];

const FAULTS = [
	{ kind: 'latency', label: 'latency past the timeout', latencyMs: PAST_TIMEOUT_MS },
	{ kind: 'http5xx', label: '502 with an HTML body' },
	{ kind: 'rateLimit', label: '429 with Retry-After', retryAfterSeconds: 0 },
	{ kind: 'malformedJson', label: 'malformed JSON (after processing)' },
	{ kind: 'drop', label: 'dropped connection' },
	{ kind: 'appError', label: '6000000 server failure' },
] as const;

/**
 * The policy: reads, Refund and Promoter Login are retried on anything; Track operations only
 * when the request cannot have been processed (429). A 6000000 is retried only where the
 * spec says "retry allowed" (Refund, promoter reads).
 */
const every = (outcome: Outcome) =>
	Object.fromEntries(FAULTS.map(({ kind }) => [kind, outcome])) as Record<FaultKind, Outcome>;
const EXPECTED: Record<OperationClass['match'], Record<FaultKind, Outcome>> = {
	promoterRead: every('recovered'),
	refund: every('recovered'),
	promoterLogin: { ...every('recovered'), appError: 'error' },
	conversion: { ...every('error'), rateLimit: 'recovered' },
};

/** The server's message of the 6000000 fault, per class (sandbox/api/routes.js). */
const SERVER_ERROR: Record<OperationClass['match'], string> = {
	promoterRead: 'Failed to retrieve promoter data',
	refund: 'Failed to apply the conversion adjustment',
	promoterLogin: 'Failed to log the promoter in',
	conversion: 'Failed to record the conversion',
};

/** Where a class ends in an error item: the message, code and remedy it must carry. */
// Track Purchase is the operation these faults fail: a write whose answer was lost says so.
const notResent = (fields: IDataObject) => () => ({
	...fields,
	description: expect.stringMatching(/not safe to repeat, so it was not sent again/),
	outcomeUnknown: true,
});
const EXPECTED_ERROR: Record<FaultKind, (match: OperationClass['match']) => IDataObject> = {
	latency: notResent({ error: TIMED_OUT }),
	http5xx: notResent({
		error: 'The service answered HTTP 502 instead of an API response',
		httpCode: '502',
	}),
	rateLimit: () => ({}),
	malformedJson: notResent({
		error: 'The service answered with a body that is not a JSON API response',
	}),
	drop: notResent({ error: expect.stringMatching(/^The connection to the service failed: /) }),
	appError: (match) => ({
		error: SERVER_ERROR[match],
		code: 6000000,
		httpCode: '200',
		description: expect.stringMatching(/^Code 6000000\. /),
	}),
};

describe(scenario('itemLoop.faults'), () => {
	const sandbox = useSandbox();
	const table: string[] = [];
	/** The node's items for `items` (one empty item when not given), Continue On Fail unless told. */
	const run = async (
		parameters: INodeParameters,
		items?: IDataObject[],
		settings: Parameters<typeof singleNodeWorkflow>[1] = { onError: 'continueRegularOutput' },
	) =>
		(
			await runWorkflow(singleNodeWorkflow(parameters, settings), {
				credentials: allCredentials(sandbox),
				input: items?.map((json) => ({ json })),
			})
		).output('Affiliate Tracking');

	afterAll(() => printTable('fault × operation class → outcome (requests the sandbox saw)', table));

	describe.each(CLASSES)('$name', (operationClass) => {
		it.each(FAULTS)('$label', async (fault) => {
			sandbox.addFault({ ...fault, match: operationClass.match, times: 1 });
			const items = await run({ ...operationClass.parameters, options: TEST_OPTIONS }, [{}]);
			expect(items).toHaveLength(1);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			const outcome: Outcome = items[0].json.error === undefined ? 'recovered' : 'error';
			table.push(
				`| ${fault.label} | ${operationClass.name} | ${outcome} | ${sandbox.requestCount} request(s) |`,
			);
			expect(outcome).toBe(EXPECTED[operationClass.match][fault.kind]);
			if (outcome === 'error') {
				expect(items[0].json).toEqual(EXPECTED_ERROR[fault.kind](operationClass.match));
			}
			if (operationClass.match === 'conversion' && fault.kind !== 'rateLimit') {
				// Never re-sent: one request (the error says why).
				expect(sandbox.requestCount).toBe(1);
			}
			if (operationClass.match === 'refund') {
				const conversion = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1001');
				expect(conversion?.adjustments).toBe(1);
			}
		});
	});

	it('a 502 that outlasts the retries gives one error item with the HTTP status', async () => {
		sandbox.addFault({ kind: 'http5xx', match: 'promoterRead', times: 10 });
		const items = await run({
			resource: 'promoter',
			operation: 'getBalances',
			userId: 'user_1001',
			options: TEST_OPTIONS,
		});
		expect(items.map((item) => item.json)).toEqual([
			{
				error: 'The service answered HTTP 502 instead of an API response',
				httpCode: '502',
				description: expect.stringContaining('Tried 3 time(s)'),
			},
		]);
		expect(sandbox.requestCount).toBe(3);
	});

	it('Track Signup can treat "already exists" as success for re-runs after a timeout', async () => {
		const signup = {
			resource: 'conversion',
			operation: 'trackSignup',
			invitedUserId: 'rerun_user',
			inviteCode: 'ADA2026',
			options: TEST_OPTIONS,
		};
		sandbox.addFault(answerLostOnce('conversion'));
		const [first] = await run(signup);
		expect(first.json.error).toBe(TIMED_OUT);
		await waitUntil(
			() => sandbox.state.conversions.some((c) => c.invitedUserId === 'rerun_user'),
			'the sandbox to record the delayed signup',
		);
		const [rerun] = await run(
			{ ...signup, additionalFields: { alreadyExistsIsSuccess: true } },
			undefined,
			{},
		);
		expect(rerun.json).toEqual({
			event_name: 'signup',
			invited_user_id: 'rerun_user',
			status: 'ALREADY_EXISTS',
			message: 'The conversion event already exists',
		});
		const recorded = sandbox.state.conversions.filter((c) => c.invitedUserId === 'rerun_user');
		expect(recorded).toHaveLength(1);
	});

	it('1,000 refunds with 10 % random faults: 1,000 outcomes, each refund applied exactly once', async () => {
		const transactionIds = sandbox.instrumentation.addPurchases('prd_videomax', 1000, 'bulk');
		for (const fault of [
			{ kind: 'drop', when: 'before' },
			{ kind: 'drop', when: 'after' },
			{ kind: 'http5xx', when: 'before' },
			{ kind: 'malformedJson', when: 'after' },
			{ kind: 'rateLimit', retryAfterSeconds: 0 },
			{ kind: 'appError' },
		] as const) {
			sandbox.addFault({ ...fault, match: 'refund', probability: 0.1 / 6 });
		}
		const items = await run(
			{
				resource: 'conversion',
				operation: 'refund',
				transactionId: '={{ $json.id }}',
				options: { maxRetries: 5, retryDelay: 5, timeout: 5000, concurrency: 10 },
			},
			transactionIds.map((id) => ({ id })),
		);
		expect(items).toHaveLength(1000);
		expect(items.map((item) => item.pairedItem)).toEqual(
			transactionIds.map((_, item) => ({ item })),
		);
		expect(items.filter((item) => item.json.error !== undefined)).toEqual([]);
		const statuses = items.map((item) => item.json.status);
		expect(statuses.every((status) => status === 'APPLIED' || status === 'ALREADY_PROCESSED')).toBe(
			true,
		);
		const bulk = sandbox.state.conversions.filter((c) => c.transactionId?.startsWith('bulk_'));
		expect(bulk).toHaveLength(1000);
		expect(bulk.every((c) => c.adjustments === 1)).toBe(true);
		const faulted = sandbox.log.filter((entry) => entry.fault !== null).length;
		table.push(
			`| 10 % random faults, 1,000 refunds | Refund | 1000 outcomes, 0 errors, every refund applied once; ${faulted} faults over ${sandbox.requestCount} requests; ${statuses.filter((s) => s === 'ALREADY_PROCESSED').length} ALREADY_PROCESSED after a lost answer |`,
		);
	});
});
