// @ts-check
'use strict';
/**
 * test:e2e, the commands `npm start` and the README print (support/n8n/n8nDemoData.js's
 * demoCommands), rendered for this run's n8n and sandbox and run through a shell exactly as
 * printed: each one's exit code and answer. Prints `DEMO: N printed commands ran as printed, N as
 * expected`. Then n8n's log must hold no "not registered" error. Run after example (f)'s check:
 * the last command gives its promoter a paying customer.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');

const { ROOT_DIR, demoCommands } = require('../../support/n8n/n8nDemoData');
const { scenario } = require('../../support/scenarios');

/**
 * Runs `command` through `sh -c` without blocking this process, where the sandbox answers.
 * @param {string} command
 * @returns {Promise<{ status: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }>}
 */
function runInShell(command) {
	return new Promise((resolve, reject) => {
		const child = spawn('sh', ['-c', command], { cwd: ROOT_DIR, timeout: 60_000 });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.once('error', reject);
		child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
	});
}

/** @param {import('./context').Started} context */
async function demoChecks(context) {
	const { check, sandbox, base, seenOutput, serverLog } = context;
	const commands = demoCommands({ n8nUrl: base, sandboxUrl: sandbox.url });
	let ran = 0;
	let expected = 0;
	for (const { does, command, answer, exitCode } of commands) {
		await check(`${scenario('e2e.demo')}: ${does}`, async () => {
			const result = await runInShell(command);
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
	await check(
		'the printed webhook URLs are registered: n8n logged no "not registered" error',
		() => {
			const unregistered = fs
				.readFileSync(serverLog, 'utf8')
				.split('\n')
				.filter((line) => line.includes('is not registered'));
			if (unregistered.length > 0)
				throw new Error(`${unregistered.length} in ${serverLog}, first: ${unregistered[0]}`);
		},
	);
	console.log(
		`DEMO: ${ran} printed commands ran as printed, ${expected} as expected (of ${commands.length})`,
	);
}

module.exports = { demoChecks };
