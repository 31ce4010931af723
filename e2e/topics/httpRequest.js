// @ts-check
'use strict';
/**
 * test:e2e, n8n's HTTP Request node with Predefined Credential Type → Affiliate Tracking API (the
 * workflow: support/n8n/httpRequestWorkflow.js): run once with `n8n execute`, then one check per case
 * on its node's output and on what the sandbox received.
 */
const assert = require('node:assert/strict');

const { importCredentials, importWorkflows } = require('../../support/n8n/n8nInstance');
const { DEMO_CREDENTIAL } = require('../../support/n8n/n8nDemoData');
const { NODES: HTTP_NODES, httpRequestWorkflow } = require('../../support/n8n/httpRequestWorkflow');
const { KEYS, PRODUCTS } = require('../../sandbox');
const { sandboxRead } = require('../../support/services/scriptedModel');
const { HTTP_WORKFLOW_ID, V1_KEY, execute, monthToDateUtc8, outputOf } = require('./context');
const { scenario } = require('../../support/scenarios');

const V1_CREDENTIAL = { id: 'affTrackSandboxV1', name: 'Affiliate Tracking sandbox (v1 key)' };

/** @typedef {import('./context').Run} Run */

/** @param {import('./context').Context} context */
async function httpRequestChecks(context) {
	const { check, sandbox, env } = context;
	// Issue 20: n8n's HTTP Request node with Predefined Credential Type → Affiliate Tracking API.
	// One workflow, one node per case, run once; each check reads its node's output and what
	// the sandbox received (it verifies every signature and records the call).
	const httpCallsBefore = sandbox.calls.length;
	const today = monthToDateUtc8().to;
	const httpRange = { from: `${today.slice(0, 4)}-01-01`, to: today };
	// The writes (refund, signup) go to a promoter of their own, so that the reads of user_1001
	// and user_1002 see the same figures whatever order the nodes run in.
	const [httpPromoter] = sandbox.instrumentation.addPromoters(
		PRODUCTS.videomax,
		1,
		'http_request_writes',
	);
	const [httpRefundTxn] = sandbox.instrumentation.addPurchases(
		PRODUCTS.videomax,
		1,
		'http_request_node',
		httpPromoter,
	);
	const httpInvitedUser = `http_raw_${Date.now()}`;
	const httpInviteCode = sandbox.state.promoters.get(
		`${PRODUCTS.videomax}|${httpPromoter}`,
	)?.referralCode;
	// Spacing, key order and non-ASCII text the node's own serializer would never produce.
	const httpRawJsonBody = `{ "event_name": "signup",\n  "invited_user_id": "${httpInvitedUser}", "invite_code": "${httpInviteCode}", "invited_user_name": "Zoë 李" }`;
	/** @type {Run | undefined} */
	let httpRun;
	await check(
		`${scenario('e2e.httpRequestNode')}: 8 cases (HTTP Request 4.5, 4.2 and 3) imported beside a second credential, with a v1 key, and run with n8n execute`,
		async () => {
			assert.ok(httpInviteCode, `${httpPromoter} has no referral code`);
			await importCredentials(env, [
				{
					...V1_CREDENTIAL,
					type: 'affiliateTrackingApi',
					data: {
						baseUrl: sandbox.url,
						apiKey: V1_KEY,
						apiSecret: KEYS[V1_KEY].secret,
						signatureVersion: 'v1',
					},
				},
			]);
			const workflow = httpRequestWorkflow({
				sandboxUrl: sandbox.url,
				v2: DEMO_CREDENTIAL,
				v1: V1_CREDENTIAL,
				transactionId: httpRefundTxn,
				rawJsonBody: httpRawJsonBody,
				range: httpRange,
			});
			await importWorkflows(env, [{ workflow, id: HTTP_WORKFLOW_ID, publish: false }]);
			httpRun = await execute(context, HTTP_WORKFLOW_ID);
			const ran = Object.keys(httpRun.data.resultData.runData).filter((name) =>
				Object.values(HTTP_NODES).includes(name),
			);
			assert.equal(ran.length, Object.keys(HTTP_NODES).length, `ran: ${ran.join(', ')}`);
			return `${ran.length} HTTP Request nodes ran; the sandbox received ${sandbox.calls.length - httpCallsBefore} calls`;
		},
	);
	/** The items a case's node put out. @param {string} node */
	const httpOutput = (node) => {
		assert.ok(httpRun, 'the HTTP Request node workflow did not run');
		return outputOf(httpRun, node).map((item) => item.json);
	};
	/** A case's first item, an answer with code 0. @param {string} node */
	const httpAnswer = (node) => {
		const [output] = httpOutput(node);
		assert.equal(output.code, 0, JSON.stringify(output));
		return output;
	};
	/** The calls the sandbox received during the run, to one path. @param {string} method @param {string} endpoint */
	const httpCalls = (method, endpoint) =>
		sandbox.calls
			.slice(httpCallsBefore)
			.filter((call) => call.method === method && call.path === `/api/open/v1${endpoint}`);
	/** A call the sandbox verified: signed with the right key version and answered with code 0. @param {import('../../sandbox').RecordedCall | undefined} call @param {'v1' | 'v2'} version */
	const assertVerified = (call, version) => {
		assert.ok(call, 'the sandbox received no such call');
		assert.deepEqual(
			[call.signature, call.keyVersion, call.code],
			['valid', version, 0],
			`sandbox saw ${JSON.stringify(call)}`,
		);
		return `${call.method} ${call.path}${call.query ? `?${call.query}` : ''} (${call.apiKey}, ${call.keyVersion}, signature ${call.signature})`;
	};
	/** @param {string} query */
	const queryOf = (query) => Object.fromEntries(new URLSearchParams(query));
	/** The sandbox's own statistics of a promoter. @param {string} userId @param {Record<string, string>} query */
	const sandboxStatistics = (userId, query) =>
		sandboxRead(sandbox, PRODUCTS.videomax, userId, query).data;
	/**
	 * A node's statistics of `userId` over this year: the sandbox's own, and read by a verified v2
	 * GET whose query is the range. Returns the call seen.
	 * @param {string} node @param {string} userId
	 */
	const assertStatisticsRead = (node, userId) => {
		const output = httpAnswer(node);
		const query = { start_date: httpRange.from, end_date: httpRange.to };
		assert.deepEqual(output.data, sandboxStatistics(userId, query));
		const call = httpCalls('GET', `/promoters/${userId}/statistics`).find((candidate) =>
			candidate.query.includes('end_date'),
		);
		const seen = assertVerified(call, 'v2');
		assert.deepEqual(queryOf(String(call?.query)), query);
		return { seen, data: output.data };
	};

	await check(
		'HTTP Request node 4.5 + Affiliate Tracking API credential: v2 POST with a JSON body (track/refund)',
		() => {
			const output = httpAnswer(HTTP_NODES.postJson);
			assert.deepEqual(
				[output.data.status, output.data.transaction_id],
				['APPLIED', httpRefundTxn],
			);
			const [call, ...more] = httpCalls('POST', '/track/refund');
			assert.equal(more.length, 0, 'more than one refund call');
			const seen = assertVerified(call, 'v2');
			assert.equal(call.query, '');
			assert.deepEqual(JSON.parse(call.body), {
				transaction_id: httpRefundTxn,
				reason: 'Refunded through the HTTP Request node',
			});
			const conversion = sandbox.state.conversions.find((c) => c.transactionId === httpRefundTxn);
			assert.equal(conversion?.adjustments, 1);
			return `sandbox: ${seen} body ${call.body}; node output ${JSON.stringify(output)}`;
		},
	);

	await check(
		'HTTP Request node 4.5: v2 GET with query parameters (promoters/{id}/statistics)',
		() => {
			const { seen, data } = assertStatisticsRead(HTTP_NODES.getQuery, 'user_1001');
			return `sandbox: ${seen}; node output data ${JSON.stringify(data)}`;
		},
	);

	await check(
		'HTTP Request node 4.5 + a v1 credential: v1 POST with a JSON body (promoter/login)',
		() => {
			const output = httpAnswer(HTTP_NODES.postV1);
			assert.ok(
				sandbox.state.centerTokens.has(output.data.token),
				'the token is not one the sandbox issued',
			);
			const [call] = httpCalls('POST', '/promoter/login').filter((candidate) =>
				candidate.body.includes('http_request_v1'),
			);
			const seen = assertVerified(call, 'v1');
			assert.deepEqual(JSON.parse(call.body), {
				user_id: 'http_request_v1',
				username: 'Signed with v1',
			});
			return `sandbox: ${seen} body ${call.body}; node output token ${output.data.token.slice(0, 6)}…, user_string_id ${output.data.user_string_id}`;
		},
	);

	await check(
		'HTTP Request node, requests the node never makes: query in the URL and in Query Parameters at once (4.2); a JSON body given as a raw string (4.5)',
		() => {
			const { seen: seenMixed } = assertStatisticsRead(
				HTTP_NODES.queryInUrlAndParameters,
				'user_1002',
			);

			const signup = httpAnswer(HTTP_NODES.rawJsonString);
			assert.equal(signup.data.event_name, 'signup');
			const [raw] = httpCalls('POST', '/track/conversion').filter((candidate) =>
				candidate.body.includes(httpInvitedUser),
			);
			const seenRaw = assertVerified(raw, 'v2');
			assert.equal(raw.body, httpRawJsonBody, 'the raw body did not arrive byte for byte');
			assert.match(String(raw.contentType), /^application\/json/);
			assert.ok(
				sandbox.state.conversions.some(
					(c) => c.invitedUserId === httpInvitedUser && c.eventName === 'signup',
				),
				'the sandbox has no signup for the raw body',
			);
			return `sandbox: ${seenMixed}; ${seenRaw} body sent as written (${Buffer.byteLength(raw.body)} bytes) → conversion ${signup.data.conversion_id}`;
		},
	);

	await check('HTTP Request node v3: GET with expand=links,statistics (promoters/{id})', () => {
		const output = httpAnswer(HTTP_NODES.version3);
		const query = { expand: 'links,statistics' };
		const expected = sandboxRead(sandbox, PRODUCTS.videomax, 'user_1001', query, 'get').data;
		assert.deepEqual(output.data, expected);
		const [call] = httpCalls('GET', '/promoters/user_1001');
		const seen = assertVerified(call, 'v2');
		assert.deepEqual(queryOf(String(call?.query)), { expand: 'links,statistics' });
		return `sandbox: ${seen}; node output: promoter ${output.data.external_user_id} with ${output.data.links.length} links and statistics`;
	});

	await check(
		'HTTP Request node 4.5 pagination (Update a Parameter in Each Request): two pages, each signed',
		() => {
			const pages = httpOutput(HTTP_NODES.pagination);
			const calls = httpCalls('GET', '/promoters/user_1001/statistics').filter(
				(call) => !call.query.includes('end_date'),
			);
			const starts = ['2020-01-01', httpRange.from];
			assert.equal(calls.length, 2, `calls: ${JSON.stringify(calls)}`);
			const seen = calls.map((call, index) => {
				assert.deepEqual(queryOf(call.query), { start_date: starts[index] });
				return assertVerified(call, 'v2');
			});
			assert.deepEqual(
				pages.map((page) => page.data),
				starts.map((start) => sandboxStatistics('user_1001', { start_date: start })),
			);
			return `sandbox: ${seen.join('; ')}; ${pages.length} items`;
		},
	);

	await check(
		'HTTP Request node 4.5: a multipart (Form-Data) body is refused before sending, with a clear error',
		() => {
			const [output] = httpOutput(HTTP_NODES.multipart);
			const shown = JSON.stringify(output);
			assert.ok(output.error, `no error item: ${shown}`);
			assert.match(shown, /multipart/i);
			const sent = httpCalls('POST', '/track/conversion').filter((call) =>
				/multipart/i.test(String(call.contentType)),
			);
			assert.equal(sent.length, 0, 'a multipart request reached the sandbox');
			return `error item, nothing sent to the sandbox: "${output.error.message ?? output.error}"`;
		},
	);
}

module.exports = { httpRequestChecks };
