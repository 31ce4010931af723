// @ts-check
'use strict';
/**
 * Checks that test:e2e (e2e/topics/) and the version matrix (e2e/test-compat.js) both run on a
 * started n8n, one piece each: the polling trigger turns a change in the sandbox into one
 * execution, and example (e)'s AI agent calls the node as a tool and replies with the sandbox's
 * figures.
 */
const assert = require('node:assert/strict');
const path = require('node:path');

const { postJson, sleep, waitUntil } = require('../support/services/processes');
const {
	askAgentAboutNewPromoter,
	assertReplyFromSandbox,
	sandboxRead,
} = require('../support/services/scriptedModel');
const { chatLoginHeader } = require('../support/n8n/n8nDemoData');
const { PRODUCTS } = require('../sandbox');

/** How long a trigger check waits for polls (they come every minute) and the execution. */
const TRIGGER_DEADLINE_MS = 200_000;

/**
 * @typedef {object} TriggerUnderTest
 * @property {string} base the n8n's address
 * @property {string} cookie the owner's session
 * @property {import('../sandbox').Sandbox} sandbox
 * @property {string} modules the release's node_modules (n8n stores run data with its flatted)
 * @property {string} workflowId the active workflow with the trigger
 * @property {string} triggerNode the trigger's node name in that workflow
 * @property {string} promoter the promoter the trigger watches (VideoMax)
 * @property {{ payingCustomers: number, clicks?: number }} activity one change, added after a poll
 * @property {string[]} seen every text n8n gave back, scanned for the API secrets at the end
 */

/**
 * The trigger, active and polling every minute: its first poll is silent; then one change per
 * poll through the sandbox's activity route until a poll is emitted. Asserts the execution
 * succeeded with one item for the promoter, a total some poll could have read and an increase
 * between 1 and the changes made. Returns the run for the caller's own assertions.
 * @param {TriggerUnderTest} trigger
 */
async function triggerEmitsAChange(trigger) {
	const { base, cookie, sandbox, modules, workflowId, promoter, seen } = trigger;
	const { parse } = require(path.join(modules, 'flatted'));
	/** @param {string} route */
	const rest = async (route) => {
		const answer = await fetch(`${base}/rest/${route}`, { headers: { cookie } });
		assert.equal(answer.status, 200, `/rest/${route}: ${answer.status}`);
		return /** @type {{ data: any }} */ (await answer.json()).data;
	};
	const executions = async () =>
		/** @type {{ id: string, status: string }[]} */ (
			(await rest(`executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`))
				.results
		);
	const polls = () =>
		sandbox.log.filter((entry) => entry.path.endsWith(`/promoters/${promoter}/statistics`)).length;
	const deadline = Date.now() + TRIGGER_DEADLINE_MS;
	// The first poll (on activation) only records the figures.
	await waitUntil(() => polls() > 0, {
		timeoutMs: TRIGGER_DEADLINE_MS,
		intervalMs: 500,
		what: 'the trigger polling the sandbox',
	});
	await sleep(2000);
	assert.equal((await executions()).length, 0, 'the first poll emitted an execution');
	const firstPolls = polls();
	let seenPolls = firstPolls;
	let added = 0;
	// The totals a poll could have read: an emitting poll may show in the executions list only
	// after the next change was made.
	/** @type {number[]} */
	const totalsSeen = [];
	const change = async () => {
		const activity = { product: PRODUCTS.videomax, userId: promoter, ...trigger.activity };
		const answer = await postJson(`${sandbox.url}/__sandbox/activity`, activity);
		assert.equal(answer.status, 200, `/__sandbox/activity: ${answer.status}`);
		await answer.arrayBuffer();
		added++;
		totalsSeen.push(sandboxRead(sandbox, PRODUCTS.videomax, promoter).data.paying_customers);
	};
	await change();
	while ((await executions()).length === 0) {
		assert.ok(Date.now() < deadline, `no execution after ${added} changes (${polls()} polls)`);
		if (polls() > seenPolls) {
			seenPolls = polls();
			// Let n8n store what the poll recorded before the figures move on.
			await sleep(2000);
			if ((await executions()).length > 0) break;
			await change();
		}
		await sleep(1000);
	}
	const execution = await waitUntil(
		async () => {
			const [latest] = await executions();
			return latest.status === 'running' || latest.status === 'new' ? undefined : latest;
		},
		{
			timeoutMs: Math.max(0, deadline - Date.now()),
			intervalMs: 500,
			what: 'the emitted execution finishing',
		},
	);
	assert.equal(execution.status, 'success');
	const run = parse((await rest(`executions/${execution.id}`)).data);
	seen.push(JSON.stringify(run));
	const emitted = run.resultData.runData[trigger.triggerNode][0].data.main[0];
	assert.equal(emitted.length, 1);
	const item = emitted[0].json;
	assert.equal(item.user_id, promoter);
	assert.ok(
		totalsSeen.includes(item.paying_customers),
		`the trigger reported ${item.paying_customers} paying customers; after each change the sandbox had ${totalsSeen.join(', ')}`,
	);
	assert.ok(
		item.increase.paying_customers >= 1 && item.increase.paying_customers <= added,
		`increase ${JSON.stringify(item.increase)} after ${added} change(s)`,
	);
	return {
		run,
		item,
		summary: `polls: ${firstPolls} silent, ${polls()} in all; ${added} change(s) → execution ${execution.id} emitted ${JSON.stringify(item)}`,
	};
}

/**
 * Example (e)'s AI agent asked, through its chat trigger at `chatUrl`, about a new promoter: the
 * scripted model is offered the node's two tools and calls Get Promoter Statistics with the
 * promoter and the prompt's dates, the node runs with those arguments, and the reply carries the
 * sandbox's figures. Returns the check's line. The chat asks for its Basic Auth login.
 * @param {{ sandbox: import('../sandbox').Sandbox, model: import('../support/services/scriptedModel').ScriptedModel, chatUrl: string, session: string, seen: string[] }} agent
 */
async function agentRepliesWithSandboxFigures({ sandbox, model, chatUrl, session, seen }) {
	const { promoter, text, reply } = await askAgentAboutNewPromoter(
		sandbox,
		PRODUCTS.videomax,
		chatUrl,
		session,
		chatLoginHeader(),
	);
	seen.push(text);
	const [first, second] = model.requests;
	const offered = (first?.tools ?? []).map((tool) => tool.function.name).sort();
	assert.deepEqual(offered, ['Get_Promoter', 'Get_Promoter_Statistics']);
	const call = second?.messages.find((message) => message.tool_calls)?.tool_calls?.[0];
	assert.equal(
		call?.function.name,
		'Get_Promoter_Statistics',
		`model requests: ${model.requests.length}, reply "${reply}"`,
	);
	assert.deepEqual(JSON.parse(String(call?.function.arguments)), {
		userId: promoter,
		startDate: '2020-01-01',
		endDate: '2030-12-31',
	});
	// The node ran with the model's arguments, and the reply carries the sandbox's figures.
	const read = assertReplyFromSandbox(sandbox, PRODUCTS.videomax, promoter, reply);
	return `tools offered ${offered.join(', ')}; model called ${call?.function.name}(${call?.function.arguments}); node read ${read}; reply "${reply}"`;
}

module.exports = { agentRepliesWithSandboxFigures, triggerEmitsAChange };
