// @ts-check
'use strict';
/**
 * test:e2e, the commands `npm start` and the README print (harness/n8nDemoData.js's
 * demoCommands), rendered for this run's n8n and sandbox and run through a shell exactly as
 * printed: each one's exit code and answer. Prints `DEMO: N printed commands ran as printed, N as
 * expected`. Run after example (f)'s check: the last command gives its promoter a paying customer.
 */
const { spawnSync } = require('node:child_process');

const { ROOT_DIR, demoCommands } = require('../../harness/n8nDemoData');

/** @param {import('./context').Started} context */
async function demoChecks(context) {
	const { check, sandbox, base, seenOutput } = context;
	const commands = demoCommands({ n8nUrl: base, sandboxUrl: sandbox.url });
	let ran = 0;
	let expected = 0;
	for (const { does, command, answer, exitCode } of commands) {
		await check(`printed command: ${does}`, () => {
			const result = spawnSync('sh', ['-c', command], {
				cwd: ROOT_DIR,
				encoding: 'utf8',
				timeout: 60_000,
			});
			if (result.error) throw result.error;
			ran++;
			const output = `${result.stdout}${result.stderr}`;
			seenOutput.push(output);
			const answered = result.stdout.split('\n').find((line) => line.startsWith(answer));
			if (result.status !== exitCode || !answered)
				throw new Error(
					`${command}\nexited ${result.status ?? result.signal} (expected ${exitCode}), expected a line starting ${answer}; its output:\n${output.trim()}`,
				);
			expected++;
			return `exit ${result.status}: ${answered}`;
		});
	}
	console.log(
		`DEMO: ${ran} printed commands ran as printed, ${expected} as expected (of ${commands.length})`,
	);
}

module.exports = { demoChecks };
