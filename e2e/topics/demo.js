// @ts-check
'use strict';
/**
 * test:e2e, the commands `npm start` and the README print (support/n8n/n8nDemoData.js's
 * demoCommands), rendered for this run's n8n and sandbox and run through a shell exactly as
 * printed: each one's exit code and answer; a printed link to example (d)'s promoter center is
 * followed to the promoter center of its user. Prints `DEMO: N printed commands ran as printed, N
 * as expected (of N); promoter-center link for <user>: <link>`. Then n8n's log must hold no "not registered" error. Run after example (f)'s check:
 * the last command gives its promoter a paying customer.
 */
const { spawn } = require('node:child_process');

const { ROOT_DIR, demoCommands } = require('../../support/n8n/n8nDemoData');
const { scenario } = require('../../support/scenarios');
const { outputOf } = require('../../support/services/processes');
const { notRegisteredErrors } = require('./context');

/**
 * Runs `command` through `sh -c` without blocking this process, where the sandbox answers.
 * @param {string} command
 */
function runInShell(command) {
	return outputOf(spawn('sh', ['-c', command], { cwd: ROOT_DIR, timeout: 60_000 }));
}

/**
 * Follows a printed link to example (d): it must redirect to the promoter center of `userId`.
 * @param {import('../../sandbox/server').Sandbox} sandbox @param {string} link @param {string} userId
 */
async function assertOpensPromoterCenter(sandbox, link, userId) {
	const answer = await fetch(link, { redirect: 'manual', signal: AbortSignal.timeout(60_000) });
	await answer.arrayBuffer();
	const location = answer.headers.get('location') ?? '';
	const prefix = `${sandbox.url}/promoter-center/iframe/`;
	const entry = location.startsWith(prefix)
		? sandbox.state.centerTokens.get(location.slice(prefix.length))
		: undefined;
	if (answer.status !== 302 || entry?.userId !== userId)
		throw new Error(
			`${link} answered ${answer.status} → ${location}, not ${userId}'s promoter center`,
		);
}

/** @param {import('./context').Started} context */
async function demoChecks(context) {
	const { check, sandbox, base, seenOutput, serverLog } = context;
	const commands = demoCommands({ n8nUrl: base, sandboxUrl: sandbox.url });
	let ran = 0;
	let expected = 0;
	let minted = '';
	for (const { does, command, answer, exitCode, opensPromoterCenterOf } of commands) {
		await check(`${scenario('e2e.demo')}: ${does}`, async () => {
			const result = await runInShell(command);
			ran++;
			const output = `${result.stdout}${result.stderr}`;
			seenOutput.push(output);
			const answered = result.stdout.split('\n').find((line) => line.startsWith(answer));
			if (result.code !== exitCode || !answered)
				throw new Error(
					`${command}\nexited ${result.code ?? result.signal} (expected ${exitCode}), expected a line starting ${answer}; its output:\n${output.trim()}`,
				);
			if (opensPromoterCenterOf) {
				await assertOpensPromoterCenter(sandbox, answered, opensPromoterCenterOf);
				minted = `; promoter-center link for ${opensPromoterCenterOf}: ${answered}`;
			}
			expected++;
			return `exit ${result.code}: ${answered}`;
		});
	}
	await check(
		'the printed webhook URLs are registered: n8n logged no "not registered" error',
		() => {
			const unregistered = notRegisteredErrors(serverLog);
			if (unregistered.length > 0)
				throw new Error(`${unregistered.length} in ${serverLog}, first: ${unregistered[0]}`);
		},
	);
	console.log(
		`DEMO: ${ran} printed commands ran as printed, ${expected} as expected (of ${commands.length})${minted}`,
	);
}

module.exports = { demoChecks };
