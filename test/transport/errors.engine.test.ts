/**
 * Errors through the n8n engine: authentication remedies, Continue On Fail and the error output,
 * one outcome per input item whether valid or not, and the secret scan of every run.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	IRun,
} from 'n8n-workflow';

import { assertNoSecrets } from '../../support/n8n/core/assertNoSecrets';
import { runWorkflow } from '../../support/n8n/core/runWorkflow';
import { singleNodeWorkflow } from '../../support/n8n/core/workflows';
import {
	allCredentials,
	credentialFor,
	KEYS,
	useSandbox,
	WRONG_SECRET,
} from '../../support/services/sandbox';
import { SERVER_MESSAGES } from '../../nodes/shared/transport/errors';
import { scenario } from '../../support/scenarios';

const getPromoter = { resource: 'promoter', operation: 'get', userId: '={{ $json.userId }}' };

describe(scenario('itemLoop.workflowExecute'), () => {
	const sandbox = useSandbox();
	/** The node on items with these fields, with the sandbox's credentials. */
	const run = async (
		parameters: INodeParameters,
		settings: Parameters<typeof singleNodeWorkflow>[1],
		items: IDataObject[],
	) =>
		await runWorkflow(singleNodeWorkflow(parameters, settings), {
			credentials: allCredentials(sandbox),
			input: items.map((json) => ({ json })),
		});

	describe(scenario('transport.authErrors'), () => {
		it.each<[string, string, ICredentialDataDecryptedObject, string, string]>([
			[
				'unknown key',
				'pk_test_videomax_v2',
				{ apiKey: 'pk_unknown' },
				'The API key was not found',
				'dashboard',
			],
			['deleted key', 'pk_test_deleted_v2', {}, 'The API key was not found', 'dashboard'],
			[
				'v1 key on a v2-only endpoint',
				'pk_test_videomax_v1',
				{},
				'This endpoint requires signature version 2',
				'Create a new key',
			],
			[
				'wrong secret',
				'pk_test_videomax_v2',
				{ apiSecret: WRONG_SECRET },
				SERVER_MESSAGES.signatureFailed,
				'API Secret belongs to this API Key',
			],
			['disabled key', 'pk_test_disabled_v2', {}, 'The API key is disabled', 'Enable the key'],
			['expired key', 'pk_test_expired_v2', {}, 'The API key has expired', 'Create a new key'],
			[
				'IP not allowlisted',
				'pk_test_allowlist_v2',
				{},
				'The client IP address is not allowlisted',
				'allowlist',
			],
			[
				'missing permission',
				'pk_test_adjustonly_v2',
				{},
				'Missing required permission: promoter:read',
				'promoter:read',
			],
		])('%s', async (_name, apiKey, overrides, message, hint) => {
			const result = await runWorkflow(
				singleNodeWorkflow(getPromoter, { credentialId: 'under-test' }),
				{
					credentials: { 'under-test': credentialFor(sandbox, apiKey, overrides) },
					input: [{ json: { userId: 'user_1001' } }],
				},
			);
			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toMatch(/^Code (1000004|6000000)\. /);
			expect(result.error?.description).toContain(hint);
		});
	});

	it('the secret scan fails a run whose data holds a secret', () => {
		const secret = KEYS.pk_test_videomax_v2.secret;
		const runData = { x: [{ data: { main: [[{ json: { leaked: secret } }]] } }] };
		const run = { data: { resultData: { runData } } } as unknown as IRun;
		expect(() => assertNoSecrets(run, [{ apiSecret: secret }])).toThrow(/API secret appears/);
	});

	it('Continue On Fail: an error item with the server message and code, paired with its input', async () => {
		const result = await run(getPromoter, { onError: 'continueRegularOutput' }, [
			{ userId: 'user_1001' },
			{ userId: 'nobody' },
			{ userId: '' },
		]);
		expect(result.error).toBeUndefined();
		const out = result.output('Affiliate Tracking');
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[0].json.object).toBe('promoter');
		expect(out[1].json).toMatchObject({
			error: 'The promoter was not found',
			code: 1000001,
			description: expect.stringContaining('Promoter Login'),
		});
		expect(out[2].json).toMatchObject({
			error: 'Parameter "User ID" is required and must not be empty',
		});
		expect(out[2].json.code).toBeUndefined();
	});

	it('the error output receives the failed items and the main output the rest', async () => {
		const result = await run(
			{ resource: 'conversion', operation: 'refund', transactionId: '={{ $json.id }}' },
			{ onError: 'continueErrorOutput' },
			[{ id: 'txn_1002' }, { id: 'txn_voided' }, { id: 'txn_duplicate' }],
		);
		const success = result.output('Affiliate Tracking', 0);
		const failed = result.output('Affiliate Tracking', 1);
		expect(success.map((item) => item.json.status)).toEqual(['APPLIED']);
		const errors = failed.map((item) => item.json.error as IDataObject);
		expect(errors.map((error) => [error.code, error.message])).toEqual([
			[6000000, 'This conversion has already been voided and cannot be fully refunded again'],
			[
				1000005,
				'Multiple conversion records match the specified transaction_id; the request cannot be processed automatically',
			],
		]);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(errors[0].description).toContain('voided');
	});

	it('without Continue On Fail the first failure stops the node with that item index', async () => {
		const result = await run(getPromoter, {}, [{ userId: 'user_1001' }, { userId: 'nobody' }]);
		expect(result.error?.message).toBe('The promoter was not found');
		expect((result.error as unknown as { context: IDataObject }).context.itemIndex).toBe(1);
	});

	it('50 items mixing valid and invalid rows give 50 outcomes in order', async () => {
		// Every fifth row alike: a promoter, an unknown one, a blank ID, an over-long ID, a promoter.
		const kinds = [
			{ userId: 'user_1001', expect: 'promoter' },
			{ userId: 'nobody', expect: 'The promoter was not found' },
			{ userId: '  ', expect: 'Parameter "User ID" is required and must not be empty' },
			{
				userId: 'x'.repeat(256),
				expect: 'Parameter "User ID" must be at most 255 characters (got 256)',
			},
			{ userId: 'user_1002', expect: 'promoter' },
		];
		const rows = Array.from({ length: 50 }, (_, i) => kinds[i % 5]);
		const before = sandbox.requestCount;
		const result = await run(
			getPromoter,
			{ onError: 'continueRegularOutput' },
			rows.map((row) => ({ userId: row.userId })),
		);
		const out: INodeExecutionData[] = result.output('Affiliate Tracking');
		expect(out).toHaveLength(50);
		expect(out.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		expect(out.map((item) => item.json.object ?? item.json.error)).toEqual(
			rows.map((row) => row.expect),
		);
		expect(sandbox.requestCount - before).toBe(30);
	});
});
