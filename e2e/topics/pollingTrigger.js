// @ts-check
'use strict';
/**
 * test:e2e, the polling trigger: example (f), active, polls every minute; a new paying customer
 * in the sandbox becomes an execution and its chat message.
 */
const assert = require('node:assert/strict');
const path = require('node:path');

const { DEFAULT_N8N_MODULES } = require('../../testing/n8nInstance');
const { PRODUCTS } = require('../../sandbox/seed');
const { example } = require('./context');

/** @param {import('./context').Started} context */
async function pollingTriggerChecks(context) {
	const { check, sandbox, base, cookie, seenOutput } = context;
	await check(
		'example f (active trigger, polling every minute): a new paying customer becomes a chat message',
		async () => {
			const { parse } = require(path.join(DEFAULT_N8N_MODULES, 'flatted'));
			const workflowId = example('f').id;
			const promoter = 'user_1002';
			/** @param {string} route */
			const rest = async (route) => {
				const answer = await fetch(`${base}/rest/${route}`, { headers: { cookie } });
				assert.equal(answer.status, 200, `/rest/${route}: ${answer.status}`);
				return /** @type {{ data: unknown }} */ (await answer.json()).data;
			};
			const executions = async () =>
				/** @type {{ results: { id: string, status: string }[] }} */ (
					await rest(`executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`)
				).results;
			const pollsSeen = () =>
				sandbox.log.filter((entry) => entry.path.endsWith(`/promoters/${promoter}/statistics`))
					.length;
			// The first poll after activation only records the figures: after each poll the sandbox
			// gets one more paying customer, until a poll has turned one into an execution.
			const deadline = Date.now() + 200_000;
			const pollsBefore = pollsSeen();
			let polls = pollsBefore;
			let added = 0;
			const payingCustomers = () =>
				/** @type {{ data: { paying_customers: number } }} */ (
					sandbox.state.readPromoter(PRODUCTS.videomax, promoter, 'statistics', new Map())
				).data.paying_customers;
			// The totals each poll could have read: a poll that emits may show in n8n's executions
			// list only after the next customer was added.
			const totalsSeen = [payingCustomers()];
			while ((await executions()).length === 0) {
				assert.ok(Date.now() < deadline, `no execution after ${added} paying customers added`);
				if (pollsSeen() > polls) {
					polls = pollsSeen();
					// Let n8n store what the poll recorded before the figures move on.
					await new Promise((resolve) => setTimeout(resolve, 2000));
					sandbox.state.addActivity(PRODUCTS.videomax, promoter, { payingCustomers: 1 });
					totalsSeen.push(payingCustomers());
					added++;
				}
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
			let [execution] = await executions();
			while (execution.status === 'running' || execution.status === 'new') {
				await new Promise((resolve) => setTimeout(resolve, 500));
				[execution] = await executions();
			}
			assert.equal(execution.status, 'success');
			const run = parse(
				/** @type {{ data: string }} */ (await rest(`executions/${execution.id}`)).data,
			);
			const trigger = run.resultData.runData['New paying customers'][0].data.main[0];
			const messages = run.resultData.runData['Chat message'][0].data.main[0];
			seenOutput.push(JSON.stringify(run));
			assert.equal(trigger.length, 1);
			assert.equal(trigger[0].json.user_id, promoter);
			const total = trigger[0].json.paying_customers;
			assert.ok(
				totalsSeen.slice(1).includes(total),
				`the trigger reported ${total} paying customers; the sandbox had ${totalsSeen.join(', ')}`,
			);
			const increase = trigger[0].json.increase.paying_customers;
			assert.ok(increase >= 1 && increase <= added, `increase ${increase}, added ${added}`);
			const text = messages[0].json.text;
			assert.match(text, new RegExp(`for promoter ${promoter}: \\+${increase}, ${total} in all`));
			return `e2e f: ${polls - pollsBefore} polls seen, ${added} paying customer(s) added after them → execution ${execution.id}: trigger item ${JSON.stringify(trigger[0].json)} → "${text}"`;
		},
	);
}

module.exports = { pollingTriggerChecks };
