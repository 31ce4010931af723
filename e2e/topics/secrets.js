// @ts-check
'use strict';
/**
 * test:e2e's last check: none of the run's secrets in anything n8n gave back (collected in the
 * context's seenOutput), in n8n's log or in what the sandbox received.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');

const { CHAT_LOGIN, promoterCenterKeyPair } = require('../../support/n8n/n8nDemoData');
const { TEST_SIGNING_SECRETS } = require('../../support/payment/paymentSignatures');
const { KEYS } = require('../../sandbox');
const { googlePlayEmulation } = require('../../sandbox');
const { API_SECRET, V1_KEY } = require('./context');
const { HS256_VARIANT } = require('./doors');
const { scenario } = require('../../support/scenarios');

/** Every secret the run's credentials hold: none may appear in anything n8n gives back. */
const SECRETS = [
	API_SECRET,
	KEYS[V1_KEY].secret,
	...Object.values(TEST_SIGNING_SECRETS),
	// Example (d)'s private key, which n8n never holds: its PEM body, line by line.
	...promoterCenterKeyPair()
		.privateKeyPem.split('\n')
		.filter((line) => line.length > 0 && !line.startsWith('-----')),
	CHAT_LOGIN.password,
	HS256_VARIANT.secret,
	// The Google Play service account's private key (the emulation's, this run's), line by line.
	...JSON.parse(googlePlayEmulation.serviceAccountJson())
		.private_key.split('\n')
		.filter((/** @type {string} */ line) => line.length > 0 && !line.startsWith('-----')),
];

/** @param {import('./context').Started} context */
async function secretChecks(context) {
	const { check, sandbox, serverLog, seenOutput } = context;
	await check(scenario('e2e.secrets'), () => {
		seenOutput.push(fs.readFileSync(serverLog, 'utf8'));
		// What the sandbox received (paths, queries, bodies) as well: a secret must never be sent.
		seenOutput.push(JSON.stringify(sandbox.calls));
		const leaks = seenOutput.filter((text) => SECRETS.some((secret) => text.includes(secret)));
		assert.equal(
			leaks.length,
			0,
			`${leaks.length} of ${seenOutput.length} outputs contain an API secret`,
		);
		return `${seenOutput.length} outputs scanned for ${SECRETS.length} secrets`;
	});
}

module.exports = { secretChecks };
