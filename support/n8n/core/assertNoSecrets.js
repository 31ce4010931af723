// @ts-check
'use strict';
/**
 * The secret check every harness run and poll passes through (runWorkflow.js, pollTrigger.js);
 * tests call it on their own data too.
 */
/** @import { ICredentialDataDecryptedObject } from 'n8n-workflow' */

/**
 * Every serialized run is scanned: an API secret in output, errors, metadata or n8n-core's log
 * (engineLog.js) fails the test.
 * @param {unknown} run @param {ICredentialDataDecryptedObject[]} credentials @returns {void}
 */
function assertNoSecrets(run, credentials) {
	const serialized = JSON.stringify(run, (_key, /** @type {unknown} */ value) =>
		value instanceof Error
			? {
					...value,
					message: value.message,
					stack: value.stack,
					description: /** @type {{ description?: unknown }} */ (value).description,
				}
			: value,
	);
	for (const { apiSecret } of credentials) {
		if (typeof apiSecret === 'string' && apiSecret.length >= 8 && serialized.includes(apiSecret)) {
			throw new Error(
				`An API secret appears in the serialized run data (${apiSecret.slice(0, 8)}…)`,
			);
		}
	}
}

module.exports = { assertNoSecrets };
