// @ts-check
'use strict';
/**
 * What test:e2e's topics share: the run's context (set up by e2e/test-e2e.js and handed to each
 * topic), the account and keys the run uses, and the helpers that run an example and read it.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');

const { executeWorkflow } = require('../../support/n8n/n8nInstance');
const { DEMO_KEY, example } = require('../../support/n8n/n8nDemoData');
const { KEYS } = require('../../sandbox');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const API_SECRET = KEYS[DEMO_KEY].secret;
/** The HTTP Request node's v1 case signs with this key, through a second credential. */
const V1_KEY = 'pk_test_videomax_v1';
const HTTP_WORKFLOW_ID = 'e2eHttpRequest001';

/**
 * The run, as every topic gets it.
 * @typedef {object} Context
 * @property {ReturnType<typeof import('../checks').createChecks>['check']} check runs one check and prints its line
 * @property {import('../../sandbox').Sandbox} sandbox the API emulation the credentials point at
 * @property {import('../../support/services/scriptedModel').ScriptedModel} model the scripted model of example (e)
 * @property {string} work the run's temporary folder (kept when a check failed)
 * @property {string} userFolder n8n's user folder, inside `work`
 * @property {NodeJS.ProcessEnv} env the environment of the n8n CLI runs
 * @property {string} base the address `n8n start` listens on
 * @property {string} serverLog the started n8n's log
 * @property {string[]} seenOutput every text n8n gave back, scanned for the API secrets at the end
 * @property {string[]} toPublish the imported workflows n8n publishes once it has started (over
 *   REST: support/n8n/publishOverRest.js)
 */
/** The run once n8n has started and the owner has signed in. @typedef {Context & { cookie: string }} Started */

/** @typedef {NonNullable<Awaited<ReturnType<typeof executeWorkflow>>['run']>} Run */

/**
 * The items of one node's output in a run.
 * @param {Run} run @param {string} node @param {number} [output]
 */
function outputOf(run, node, output = 0) {
	const runs = run.data.resultData.runData[node];
	assert.ok(
		runs,
		`node "${node}" did not run; ran: ${Object.keys(run.data.resultData.runData).join(', ')}`,
	);
	return (runs[0].data.main[output] ?? []).map((item) => item);
}

/**
 * `n8n execute --id` (of `release`, or the default one), its output kept for the secret scan.
 * @param {Pick<Context, 'env' | 'seenOutput'>} context @param {string} id
 * @param {import('../../support/n8n/n8nInstall').N8nRelease} [release] @returns {Promise<Run>}
 */
async function execute({ env, seenOutput }, id, release) {
	const { code, signal, stdout, stderr, run } = await executeWorkflow(env, id, release);
	seenOutput.push(stdout, stderr);
	assert.equal(
		code,
		0,
		`n8n execute --id=${id} exited with ${code ?? signal}:\n${stdout}\n${stderr}`,
	);
	assert.ok(run, `n8n execute --id=${id} printed no run:\n${stdout.slice(0, 2000)}`);
	return run;
}

/** The "is not registered" errors in n8n's log. @param {string} serverLog */
function notRegisteredErrors(serverLog) {
	const lines = fs.readFileSync(serverLog, 'utf8').split('\n');
	return lines.filter((line) => line.includes('is not registered'));
}

/** Today in UTC+8 as Y-m-d, and the first day of its month: the range example (b) reports. */
function monthToDateUtc8() {
	const today = new Date(Date.now() + 8 * 3600 * 1000).toISOString().slice(0, 10);
	return { from: `${today.slice(0, 8)}01`, to: today };
}

module.exports = {
	API_SECRET,
	CHROMIUM,
	HTTP_WORKFLOW_ID,
	V1_KEY,
	example,
	execute,
	monthToDateUtc8,
	notRegisteredErrors,
	outputOf,
};
