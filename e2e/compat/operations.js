// @ts-check
'use strict';
/**
 * The version matrix's (e2e/test-compat.js) workflow that runs all 13 operations against the
 * sandbox in one `n8n execute`, and what each operation's output must be.
 */
const assert = require('node:assert/strict');

const { CREDENTIAL_TYPE, DEMO_CREDENTIAL, NODE_TYPE } = require('../../harness/n8nDemoData');
const { PRODUCTS } = require('../../sandbox/seed');

/** @typedef {import('../../sandbox/server').Sandbox} Sandbox */

const PHOTOPAL_CREDENTIAL = { id: 'affTrackPhotopal1', name: 'Affiliate Tracking PhotoPal' };
const PHOTOPAL_KEY = 'pk_test_photopal_v2';

/**
 * The workflow that runs every operation once: a Manual Trigger fanned out to one branch per
 * operation; Exchange Code follows Authorize and Get Debug Code, Track Purchase and Track Custom
 * Event follow Track Signup.
 */
function operationsWorkflow() {
	const photopal = { [CREDENTIAL_TYPE]: PHOTOPAL_CREDENTIAL };
	const videomax = { [CREDENTIAL_TYPE]: DEMO_CREDENTIAL };
	/** @type {[string, Record<string, unknown>, object][]} */
	const operations = [
		[
			'Authorize',
			{
				resource: 'authorization',
				operation: 'authorize',
				productKey: PRODUCTS.photopal,
				targetProductKey: PRODUCTS.videomax,
				userId: 'pp_compat_1',
				additionalFields: { extra: '{"name": "Ada"}' },
			},
			photopal,
		],
		[
			'Exchange Code',
			{ resource: 'authorization', operation: 'exchangeCode', code: '={{ $json.code }}' },
			videomax,
		],
		[
			'Authorize and Redirect',
			{
				resource: 'authorization',
				operation: 'authorizeAndRedirect',
				productKey: PRODUCTS.photopal,
				targetProductKey: PRODUCTS.videomax,
				userId: 'pp_compat_2',
				additionalFields: { extra: '{"name": "Bo"}' },
			},
			photopal,
		],
		[
			'Get Debug Code',
			{
				resource: 'authorization',
				operation: 'getDebugCode',
				sourceProductKey: PRODUCTS.photopal,
				targetProductKey: PRODUCTS.videomax,
				userId: 'debug_compat',
				additionalFields: { extra: '{"name": "Debug User"}' },
			},
			photopal,
		],
		[
			'Exchange Debug Code',
			{ resource: 'authorization', operation: 'exchangeCode', code: '={{ $json.code }}' },
			videomax,
		],
		[
			'Track Signup',
			{
				resource: 'conversion',
				operation: 'trackSignup',
				invitedUserId: 'vm_compat_1',
				inviteCode: 'ADA2026',
				additionalFields: { invitedUserName: 'Ann' },
			},
			videomax,
		],
		[
			'Track Purchase',
			{
				resource: 'conversion',
				operation: 'trackPurchase',
				invitedUserId: 'vm_compat_1',
				transactionId: 'order_compat_1',
				conversionValue: '49.90',
				additionalFields: { extraBodyFields: '{"currency": "USD"}' },
			},
			videomax,
		],
		[
			'Track Custom Event',
			{
				resource: 'conversion',
				operation: 'trackEvent',
				eventName: 'renewal',
				invitedUserId: 'vm_compat_1',
				additionalFields: { transactionId: 'renew_compat_1', conversionValue: 9.5 },
			},
			videomax,
		],
		[
			'Refund',
			{
				resource: 'conversion',
				operation: 'refund',
				transactionId: 'txn_1001',
				reason: 'compat refund',
			},
			videomax,
		],
		[
			'Promoter Login',
			{
				resource: 'promoter',
				operation: 'login',
				userId: 'brand_user_compat',
				additionalFields: { email: 'eve@example.com', lang: 'zh', themeMode: 'dark' },
			},
			videomax,
		],
		[
			'Get Promoter',
			{
				resource: 'promoter',
				operation: 'get',
				userId: 'user_1001',
				expand: ['links', 'statistics', 'balances'],
			},
			videomax,
		],
		[
			'Get Promoter Links',
			{ resource: 'promoter', operation: 'getLinks', userId: 'user_1001' },
			videomax,
		],
		[
			'Get Promoter Statistics',
			{
				resource: 'promoter',
				operation: 'getStatistics',
				userId: 'user_1001',
				startDate: '2026-03-01',
				endDate: '2026-03-01',
			},
			videomax,
		],
		[
			'Get Promoter Balances',
			{ resource: 'promoter', operation: 'getBalances', userId: 'user_1001' },
			videomax,
		],
	];
	const follows = /** @type {Record<string, string>} */ ({
		'Exchange Code': 'Authorize',
		'Exchange Debug Code': 'Get Debug Code',
		'Track Purchase': 'Track Signup',
		'Track Custom Event': 'Track Purchase',
	});
	/** @type {Record<string, { main: { node: string, type: string, index: number }[][] }>} */
	const connections = {};
	/** @param {string} from @param {string} to */
	const connect = (from, to) => {
		connections[from] ??= { main: [[]] };
		connections[from].main[0].push({ node: to, type: 'main', index: 0 });
	};
	for (const [name] of operations) connect(follows[name] ?? 'Start', name);
	return {
		name: 'Compat: every operation',
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			...operations.map(([name, parameters, credentials], index) => ({
				id: `op${index}`,
				name,
				type: NODE_TYPE,
				typeVersion: 1,
				position: [300 + (follows[name] ? 300 : 0), index * 120],
				parameters,
				credentials,
			})),
		],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/**
 * What each operation's output must be, checked against the sandbox's own records.
 * @param {Sandbox} sandbox
 * @returns {[string, string, (items: any[]) => string][]} [operation, node, check]
 */
function operationChecks(sandbox) {
	return [
		[
			'authorize',
			'Authorize',
			([item]) => {
				const url = new URL(item.json.redirect_url);
				assert.equal(url.searchParams.get('x_auth_code'), item.json.code);
				return `code ${String(item.json.code).slice(0, 6)}…, redirect ${url.origin}${url.pathname}`;
			},
		],
		[
			'exchangeCode',
			'Exchange Code',
			([item]) => {
				assert.equal(item.json.user_name, 'Ada');
				assert.equal(item.json.ref_product_key, PRODUCTS.photopal);
				assert.match(item.json.user_key, /^uk_/);
				return `user ${item.json.user_key} "${item.json.user_name}" from ${item.json.ref_product_key}`;
			},
		],
		[
			'authorizeAndRedirect',
			'Authorize and Redirect',
			([item]) => {
				assert.match(
					item.json.redirect_url,
					/^https:\/\/videomax\.example\/landing\?ps_ref=rl_[0-9a-f]+&x_auth_code=[0-9a-f]{32}$/,
				);
				assert.match(item.json.ps_ref, /^rl_/);
				return `ps_ref ${item.json.ps_ref}`;
			},
		],
		[
			'getDebugCode',
			'Get Debug Code',
			([item]) => {
				assert.equal(typeof item.json.code, 'string');
				assert.ok(String(item.json.redirect_url).includes('x_auth_code='));
				return `code ${String(item.json.code).slice(0, 6)}…`;
			},
		],
		[
			'exchangeCode (debug)',
			'Exchange Debug Code',
			([item]) => {
				assert.equal(item.json.user_name, 'Debug User');
				return `user "${item.json.user_name}"`;
			},
		],
		[
			'trackSignup',
			'Track Signup',
			([item]) => {
				assert.equal(item.json.event_name, 'signup');
				assert.equal(item.json.status, 1);
				assert.equal(item.json.campaign_id, 202);
				return `conversion ${item.json.conversion_id}, campaign ${item.json.campaign_id}`;
			},
		],
		[
			'trackPurchase',
			'Track Purchase',
			([item]) => {
				assert.equal(item.json.event_name, 'purchase');
				assert.equal(item.json.event_type, 2);
				const recorded = sandbox.state.conversions.find(
					(c) => c.transactionId === 'order_compat_1',
				);
				assert.equal(recorded?.valueCents, 4990);
				assert.deepEqual(recorded?.otherFields, { currency: 'USD' });
				return `conversion ${item.json.conversion_id}, sandbox recorded 4990 cents USD`;
			},
		],
		[
			'trackEvent',
			'Track Custom Event',
			([item]) => {
				assert.equal(item.json.event_name, 'renewal');
				assert.equal(item.json.event_type, 3);
				const recorded = sandbox.state.conversions.find(
					(c) => c.transactionId === 'renew_compat_1',
				);
				assert.equal(recorded?.valueCents, 950);
				return `conversion ${item.json.conversion_id}, sandbox recorded 950 cents`;
			},
		],
		[
			'refund',
			'Refund',
			([item]) => {
				assert.equal(item.json.status, 'APPLIED');
				assert.equal(item.json.transaction_id, 'txn_1001');
				assert.equal(item.json.cancelled_reward_count, 2);
				const conversion = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1001');
				assert.equal(conversion?.reason, 'compat refund');
				return `${item.json.status}, cancelled ${item.json.cancelled_reward_count}, preserved paid ${item.json.preserved_paid_reward_count}`;
			},
		],
		[
			'login',
			'Promoter Login',
			([item]) => {
				const token = String(item.json.token);
				assert.equal(item.json.theme_mode, 'dark');
				assert.equal(
					item.json.promoterCenterIframeUrl,
					`${sandbox.url}/promoter-center/iframe/${encodeURIComponent(token)}`,
				);
				assert.ok(sandbox.state.centerTokens.has(token), 'not a token the sandbox issued');
				return `token ${token.slice(0, 6)}…, ${item.json.user_string_id}`;
			},
		],
		[
			'get',
			'Get Promoter',
			([item]) => {
				assert.equal(item.json.external_user_id, 'user_1001');
				assert.equal(item.json.referral_code, 'ADA2026');
				assert.equal(item.json.links.length, 2);
				assert.equal(item.json.balances.length, 2);
				assert.equal(item.json.statistics.object, 'promoter_statistics');
				return `${item.json.external_user_id} ${item.json.status}, 2 links, 2 balances`;
			},
		],
		[
			'getLinks',
			'Get Promoter Links',
			(items) => {
				const urls = items.map((item) => item.json.url);
				assert.deepEqual(urls, [
					'https://go.videomax.example/ADA2026',
					'https://go.videomax.example/ADA-SPRING',
				]);
				return urls.join(', ');
			},
		],
		[
			'getStatistics',
			'Get Promoter Statistics',
			([item]) => {
				assert.equal(item.json.clicks, 1);
				assert.equal(item.json.start_date, '2026-03-01');
				assert.equal(item.json.end_date, '2026-03-01');
				return `clicks ${item.json.clicks} on 2026-03-01`;
			},
		],
		[
			'getBalances',
			'Get Promoter Balances',
			(items) => {
				const currencies = items.map((item) => item.json.currency);
				assert.deepEqual(currencies, ['EUR', 'USD']);
				return currencies.join(', ');
			},
		],
	];
}

module.exports = { PHOTOPAL_CREDENTIAL, PHOTOPAL_KEY, operationChecks, operationsWorkflow };
