/** One workflow per operation (support/fixtures/workflows) through n8n-core, on the sandbox. */
import type { IExecuteFunctions, INodeExecutionData, INodeType, IWorkflowBase } from 'n8n-workflow';

import { runWorkflow } from '../../support/n8n/core/runWorkflow';
import { withCredential } from '../../support/n8n/core/workflows';
import { readWorkflowFixture, type WorkflowFixtureName } from '../../support/fixtures/workflows';
import { allCredentials, PROMOTER_CENTER_URL, useSandbox } from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';

const json = (items: INodeExecutionData[]) => items.map((item) => item.json);
/**
 * n8n's Manual Trigger as a manual run uses it: it passes on the one empty item it is given. Its
 * package (n8n-nodes-base) is not installed here; test:e2e and the matrix run the real one.
 */
const manualTrigger: INodeType = {
	description: {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: '',
		defaults: {},
		inputs: [],
		outputs: ['main'],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		return [this.getInputData()];
	},
};
const paired = (items: INodeExecutionData[]) => items.map((item) => item.pairedItem);

describe(scenario('actions.outputs'), () => {
	const sandbox = useSandbox();

	/** Runs a fixture (by name, or read and changed) on `input`, with the sandbox's credentials. */
	const execute = async (
		fixture: WorkflowFixtureName | IWorkflowBase,
		input: object[],
		credentialId?: string,
		credentials = allCredentials(sandbox),
	) => {
		const workflow = typeof fixture === 'string' ? readWorkflowFixture(fixture) : fixture;
		return await runWorkflow(credentialId ? withCredential(workflow, credentialId) : workflow, {
			credentials,
			input: input.map((item) => ({ json: item as INodeExecutionData['json'] })),
		});
	};
	/** As execute(); the run must not fail. */
	async function run(...args: Parameters<typeof execute>) {
		const result = await execute(...args);
		expect(result.error).toBeUndefined();
		return result;
	}
	/** The items of the fixture's one node. */
	const itemsOf = async (fixture: WorkflowFixtureName, input: object[], credentialId?: string) =>
		(await run(fixture, input, credentialId)).output(readWorkflowFixture(fixture).nodes[0].name);

	describe.each(['photopal-v2', 'photopal-v1'])('authorization with %s', (credentialId) => {
		it('Authorize returns a one-time code and the redirect URL', async () => {
			const out = await itemsOf(
				'authorization-authorize',
				[
					{ userId: 'pp_1', name: 'Ada' },
					{ userId: 'pp_2', name: 'Bo' },
				],
				credentialId,
			);
			expect(out).toHaveLength(2);
			expect(paired(out)).toEqual([{ item: 0 }, { item: 1 }]);
			for (const { json: data } of out) {
				expect(data.redirect_url).toBe(
					`https://videomax.example/landing?ps_ref=${new URL(String(data.redirect_url)).searchParams.get('ps_ref')}&x_auth_code=${data.code}`,
				);
			}
		});

		it('Authorize and get redirect returns the Location and its ps_ref and x_auth_code', async () => {
			const [item] = await itemsOf(
				'authorization-authorizeAndRedirect',
				[{ userId: 'pp 1/ü', name: 'Ada' }],
				credentialId,
			);
			expect(item.json.redirect_url).toMatch(
				/^https:\/\/videomax\.example\/landing\?ps_ref=rl_[0-9a-f]+&x_auth_code=[0-9a-f]{32}$/,
			);
			expect(item.json.ps_ref).toMatch(/^rl_/);
			expect(item.json.x_auth_code).toMatch(/^[0-9a-f]{32}$/);
		});
	});

	it.each([
		['videomax-v2', 'photopal-v2'],
		['videomax-v1', 'photopal-v1'],
	])(
		'Exchange Code (%s) returns the authorized user of a relay',
		async (exchangeCredential, authorizeCredential) => {
			const workflow = readWorkflowFixture('authorization-exchangeCode');
			[authorizeCredential, exchangeCredential].forEach((id, node) => {
				workflow.nodes[node].credentials = { affiliateTrackingApi: { id, name: id } };
			});
			const result = await run(workflow, [{ userId: 'pp_9', name: 'Ada' }]);
			expect(json(result.output('Exchange Code'))).toEqual([
				{
					user_key: expect.stringMatching(/^uk_/),
					user_name: 'Ada',
					ref: 'PhotoPal',
					ref_product_key: 'prd_photopal',
					locale: 'en',
					extra: { name: 'Ada' },
				},
			]);
		},
	);

	it('Get Debug Code returns a code the target product can exchange', async () => {
		const result = await run('authorization-getDebugCode', [{ userId: 'debug_1' }]);
		expect(result.output('Get Debug Code')[0].json).toEqual({
			code: expect.any(String),
			redirect_url: expect.stringContaining('x_auth_code='),
		});
		expect(result.output('Exchange Code')[0].json).toMatchObject({
			user_name: 'Debug User',
			ref_product_key: 'prd_photopal',
		});
	});

	describe.each(['videomax-v2', 'videomax-v1'])('conversions with %s', (credentialId) => {
		it('Track Signup reports signups attributed by the invite code', async () => {
			const out = await itemsOf(
				'conversion-trackSignup',
				[
					{ userId: 'vm_1', name: 'Ann', ps_ref: 'ADA2026' },
					{ userId: 'vm_2', name: 'Ben', ps_ref: 'ADA-SPRING' },
				],
				credentialId,
			);
			const signup = {
				conversion_id: expect.any(Number),
				campaign_id: 202,
				affiliate_id: expect.any(Number),
				event_type: 1,
				event_name: 'signup',
				status: 1,
			};
			expect(json(out)).toEqual([signup, signup]);
			expect(paired(out)).toEqual([{ item: 0 }, { item: 1 }]);
		});

		it.each([
			[
				'Track Purchase reports a paid conversion after the signup',
				'conversion-trackPurchase',
				{ userId: 'buyer_1', orderId: 'order_77', amount: '49.90' },
				{ event_name: 'purchase', event_type: 2, status: 1 },
				// The fixture's Extra Body Fields, as the service received them.
				{
					eventName: 'purchase',
					invitedUserId: 'buyer_1',
					valueCents: 4990,
					otherFields: { currency: 'USD' },
				},
			],
			[
				'Track Custom Event reports a custom event with a value',
				'conversion-trackEvent',
				{ event: 'renewal', userId: 'buyer_2', orderId: 'renew_1', amount: 9.5 },
				{ event_name: 'renewal', event_type: 3 },
				{ eventName: 'renewal', invitedUserId: 'buyer_2', valueCents: 950, otherFields: {} },
			],
		] as const)('%s', async (_name, fixture, input, answer, recorded) => {
			const out = await itemsOf(fixture, [input], credentialId);
			expect(out[0].json).toMatchObject(answer);
			const conversion = sandbox.state.conversions.find((c) => c.transactionId === input.orderId);
			expect(conversion).toMatchObject(recorded);
		});
	});

	it('Refund applies once; a repeat is a success with ALREADY_PROCESSED', async () => {
		const out = await itemsOf('conversion-refund', [
			{ transactionId: 'txn_1001', reason: 'customer request' },
			{ transactionId: 'txn_1001', reason: '' },
			{ transactionId: 20260301 },
		]);
		const statuses = json(out).map((data) => data.status);
		expect(statuses).toEqual(['APPLIED', 'ALREADY_PROCESSED', 'APPLIED']);
		expect(out[0].json).toMatchObject({
			cancelled_reward_count: 2,
			preserved_paid_reward_count: 1,
			cancelled_sub_reward_count: 1,
			preserved_paid_sub_reward_count: 1,
		});
		expect(out[1].json).toMatchObject({
			cancelled_reward_count: 0,
			preserved_paid_reward_count: 0,
		});
		const refunded = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1001');
		expect(refunded?.reason).toBe('customer request');
	});

	it.each(['videomax-v2', 'videomax-v1'])(
		'Promoter Login with %s returns the token and the promoter-center addresses',
		async (credentialId) => {
			const [item] = await itemsOf(
				'promoter-login',
				[{ userId: 'brand_user_5', email: 'eve@example.com', name: 'Eve' }],
				credentialId,
			);
			const token = String(item.json.token);
			expect(item.json).toEqual({
				token,
				user_string_id: expect.stringMatching(/^ps_/),
				lang: 'zh',
				theme_mode: 'dark',
				promoterCenterUrl: `${PROMOTER_CENTER_URL}?at=${encodeURIComponent(token)}`,
				promoterCenterIframeUrl: `${PROMOTER_CENTER_URL}/iframe/${encodeURIComponent(token)}`,
			});
		},
	);

	it('Promoter Login without a promoter-center address returns the API data only', async () => {
		const credentials = allCredentials(sandbox);
		credentials['videomax-v2'] = { ...credentials['videomax-v2'], promoterCenterUrl: '' };
		const result = await execute('promoter-login', [{ userId: 'u5' }], undefined, credentials);
		const fields = Object.keys(result.output('Promoter Login')[0].json).sort();
		expect(fields).toEqual(['lang', 'theme_mode', 'token', 'user_string_id']);
	});

	it('Get Promoter returns the promoter with links, statistics and balances', async () => {
		const [item] = await itemsOf('promoter-get', [{ userId: 'user_1001' }]);
		expect(item.json).toMatchObject({
			object: 'promoter',
			external_user_id: 'user_1001',
			status: 'approved',
			referral_code: 'ADA2026',
			joined_at: '2026-01-30T10:00:00+08:00',
			statistics: { object: 'promoter_statistics', clicks: 4, signups: 2, start_date: null },
		});
		expect(item.json.links).toHaveLength(2);
		expect(item.json.balances).toHaveLength(2);
	});

	it.each([
		[
			'Get Promoter Links gives one item per link',
			'promoter-getLinks',
			'url',
			[
				'https://go.videomax.example/ADA2026',
				'https://go.videomax.example/ADA-SPRING',
				'https://cn.go.videomax.example/LILEI88',
			],
		],
		[
			'Get Promoter Balances gives one item per currency',
			'promoter-getBalances',
			'currency',
			['EUR', 'USD', 'USD'],
		],
	] as const)('%s, paired with its input', async (_name, fixture, field, expected) => {
		const out = await itemsOf(fixture, [{ userId: 'user_1001' }, { userId: 'user_1002' }]);
		expect(json(out).map((data) => data[field])).toEqual(expected);
		expect(paired(out)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }]);
	});

	it('Get Promoter Links with Split Into Items off gives one item per input, even without links', async () => {
		const workflow = readWorkflowFixture('promoter-getLinks');
		workflow.nodes[0].parameters.splitIntoItems = false;
		const result = await run(workflow, [{ userId: 'user_1001' }, { userId: 'user/with space&ü' }]);
		const links = json(result.output('Get Promoter Links')).map((data) => data.links as unknown[]);
		expect(links.map((list) => list.length)).toEqual([2, 0]);
	});

	it('Get Promoter Statistics passes the date range (read in UTC+8)', async () => {
		const out = await itemsOf('promoter-getStatistics', [
			{ userId: 'user_1001', from: '2026-03-01', to: '2026-03-01' },
			{ userId: 'user_1001', from: '', to: '' },
		]);
		expect(out[0].json).toMatchObject({
			object: 'promoter_statistics',
			clicks: 1,
			start_date: '2026-03-01',
			end_date: '2026-03-01',
		});
		expect(out[1].json).toMatchObject({ clicks: 4, start_date: null, end_date: null });
	});

	// What each operation answers is asserted above, once; here the one workflow test:e2e and the
	// matrix import runs whole, each operation's node giving its items and no error.
	it(scenario('actions.everyOperation'), async () => {
		const result = await runWorkflow(readWorkflowFixture('every-operation'), {
			credentials: allCredentials(sandbox),
			otherNodeTypes: { 'n8n-nodes-base.manualTrigger': manualTrigger },
		});
		expect(result.error).toBeUndefined();
		const itemsPerNode = {
			Authorize: 1,
			'Exchange Code': 1,
			'Authorize and Redirect': 1,
			'Get Debug Code': 1,
			'Exchange Debug Code': 1,
			'Track Signup': 1,
			'Track Purchase': 1,
			'Track Custom Event': 1,
			Refund: 1,
			'Promoter Login': 1,
			'Get Promoter': 1,
			'Get Promoter Links': 2,
			'Get Promoter Statistics': 1,
			'Get Promoter Balances': 2,
		};
		const nodes = Object.keys(itemsPerNode);
		expect(Object.fromEntries(nodes.map((node) => [node, result.output(node).length]))).toEqual(
			itemsPerNode,
		);
		const failed = nodes.flatMap((node) => json(result.output(node)).filter((data) => data.error));
		expect(failed).toEqual([]);
	});

	it('the promoter reads refuse a v1 key with the rotation hint', async () => {
		const result = await execute('promoter-getBalances', [{ userId: 'user_1001' }], 'videomax-v1');
		expect(result.error?.message).toBe('This endpoint requires signature version 2');
		expect(result.error?.description).toContain('Code 1000004');
		expect(result.error?.description).toContain('Create a new key');
	});
});
