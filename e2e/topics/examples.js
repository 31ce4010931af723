// @ts-check
'use strict';
/**
 * test:e2e, the examples run headless with `n8n execute --id` against the sandbox, each one's
 * output and what the sandbox recorded asserted: (a) refund, (h) purchase, (b) statistics → xlsx,
 * (c) relay landing, (d) promoter center page.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { DEFAULT_N8N_MODULES } = require('../../harness/n8nInstance');
const { PRODUCTS } = require('../../sandbox/seed');
const { readPromoter } = require('../../sandbox/api/promoters');
const { trackConversion } = require('../../sandbox/api/conversions');
const { example, execute, monthToDateUtc8, outputOf } = require('./context');

/** @param {import('./context').Context} context */
async function exampleChecks(context) {
	const { check, sandbox, userFolder } = context;
	// (a) refund: the sample event refunds txn_1001.
	await check('example a (execute): refund on a payment webhook', async () => {
		const run = await execute(context, example('a').id);
		const [refund] = outputOf(run, 'Refund');
		assert.equal(refund.json.status, 'APPLIED');
		assert.equal(refund.json.transaction_id, 'txn_1001');
		assert.equal(outputOf(run, 'Respond: refunded').length, 1);
		const conversion = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1001');
		assert.equal(conversion?.adjustments, 1, 'the sandbox did not adjust txn_1001 exactly once');
		return `e2e a: execute --id=${example('a').id} → Refund ${refund.json.status} ${refund.json.transaction_id}, cancelled_reward_count ${refund.json.cancelled_reward_count}, preserved_paid_reward_count ${refund.json.preserved_paid_reward_count}`;
	});

	// (h) purchase: the sample event tracks pi_sample_purchase_1 for buyer_1.
	await check('example h (execute): purchase on a payment webhook', async () => {
		const run = await execute(context, example('h').id);
		const [tracked] = outputOf(run, 'Track Purchase');
		assert.equal(tracked.json.event_name, 'purchase', JSON.stringify(tracked.json));
		assert.equal(outputOf(run, 'Respond: tracked').length, 1);
		const recorded = sandbox.state.conversions.filter(
			(c) => c.transactionId === 'pi_sample_purchase_1',
		);
		assert.equal(recorded.length, 1, 'the sandbox did not record pi_sample_purchase_1 once');
		assert.equal(recorded[0].valueCents, 4900);
		return `e2e h: execute --id=${example('h').id} → Track Purchase conversion ${tracked.json.conversion_id} for pi_sample_purchase_1, 49.00`;
	});

	// (b) statistics: a signup today makes the month-to-date figures non-zero.
	await check('example b (execute): month-to-date statistics → xlsx', async () => {
		const ada = sandbox.state.promoters.get(`${PRODUCTS.videomax}|user_1001`);
		const signup = trackConversion(sandbox.state, PRODUCTS.videomax, {
			event_name: 'signup',
			invited_user_id: `e2e_buyer_${Date.now()}`,
			invite_code: ada?.referralCode,
		});
		assert.equal(signup.code, 0, `could not seed a signup: ${signup.message}`);
		const run = await execute(context, example('b').id);
		const [file] = outputOf(run, 'Spreadsheet (xlsx)');
		const binary = file.binary?.data;
		const { from, to } = monthToDateUtc8();
		assert.equal(binary?.fileName, `promoter-statistics-${to}.xlsx`);
		assert.equal(
			binary?.mimeType,
			'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
		);
		const bytes = binary.id
			? fs.readFileSync(
					path.join(userFolder, '.n8n', 'storage', binary.id.replace(/^filesystem(-v2)?:/, '')),
				)
			: Buffer.from(binary.data, 'base64');
		const xlsx = require(
			require.resolve('@e965/xlsx', { paths: [path.join(DEFAULT_N8N_MODULES, 'n8n-nodes-base')] }),
		);
		const sheet = xlsx.read(bytes).Sheets['Month to date'];
		assert.ok(sheet, 'no sheet "Month to date" in the file');
		const rows = /** @type {Record<string, string | number>[]} */ (xlsx.utils.sheet_to_json(sheet));
		assert.equal(rows.length, 2);
		for (const row of rows) {
			const expected = /** @type {Record<string, string | number>} */ (
				readPromoter(
					sandbox.state,
					PRODUCTS.videomax,
					String(row.Promoter),
					'statistics',
					new Map([
						['start_date', [from]],
						['end_date', [to]],
					]),
				).data
			);
			assert.deepEqual(row, {
				Promoter: row.Promoter,
				From: from,
				To: to,
				Clicks: expected.clicks,
				Signups: expected.signups,
				'Paying customers': expected.paying_customers,
				'Rewards accrued': Number(expected.rewards_accrued),
				'Rewards paid': Number(expected.rewards_paid),
				Currency: expected.currency,
			});
		}
		assert.deepEqual(
			rows.map((row) => row.Promoter),
			['user_1001', 'user_1002'],
		);
		assert.ok(Number(rows[0].Signups) >= 1, 'the signup made today is missing from user_1001');
		return `e2e b: execute --id=${example('b').id} → ${binary.fileName} (${bytes.length} bytes), rows ${rows.map((r) => `${r.Promoter}: ${r.Signups} signups`).join(', ')} for ${from}..${to}`;
	});

	// (c) relay landing: a debug code stands in for the relay.
	await check('example c (execute): relay landing → exchange → signup → redirect', async () => {
		const run = await execute(context, example('c').id);
		const [user] = outputOf(run, 'Exchange Code');
		const [signup] = outputOf(run, 'Track Signup');
		const [response] = outputOf(run, 'Redirect into the app', 1);
		assert.equal(user.json.user_name, 'Demo User');
		assert.equal(signup.json.event_name, 'signup');
		assert.equal(response.json.response.statusCode, 302);
		assert.equal(
			response.json.response.headers.location,
			'https://videomax.example/welcome?name=Demo%20User',
		);
		assert.ok(
			sandbox.state.conversions.some(
				(c) => c.invitedUserId === user.json.user_key && c.eventName === 'signup',
			),
			'the sandbox has no signup for the exchanged user',
		);
		return `e2e c: execute --id=${example('c').id} → Exchange Code ${user.json.user_key} (${user.json.user_name}), Track Signup conversion ${signup.json.conversion_id}, 302 → ${response.json.response.headers.location}`;
	});

	// (d) promoter center: the page's iframe carries a token the sandbox issued.
	await check('example d (execute): promoter login → HTML page with the iframe', async () => {
		const run = await execute(context, example('d').id);
		const [login] = outputOf(run, 'Promoter Login');
		const [page] = outputOf(run, 'Page with the promoter center', 1);
		const body = String(page.json.response.body);
		assert.ok(
			sandbox.state.centerTokens.has(login.json.token),
			'the token is not one the sandbox issued',
		);
		assert.ok(
			body.includes(
				`src="${sandbox.url}/promoter-center/iframe/${login.json.token}" allow="clipboard-write"`,
			),
			`the page has no iframe with the token:\n${body}`,
		);
		assert.equal(page.json.response.headers['content-type'], 'text/html; charset=utf-8');
		return `e2e d: execute --id=${example('d').id} → Promoter Login token ${login.json.token.slice(0, 6)}…, page ${body.length} bytes with <iframe src="…/promoter-center/iframe/<token>" allow="clipboard-write">`;
	});
}

module.exports = { exampleChecks };
