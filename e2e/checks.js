// @ts-check
'use strict';
/** The end-to-end runs' checks: one line each, with its time and what it saw, and the counts. */

/** @param {string} label the closing line's label, such as `E2E` */
function createChecks(label) {
	const counts = { passed: 0, failed: 0 };
	return {
		counts,
		/** @param {string} name @param {() => Promise<string | void> | string | void} body */
		async check(name, body) {
			const started = Date.now();
			try {
				const detail = await body();
				counts.passed++;
				console.log(
					`  ✔ ${name} (${Date.now() - started} ms)${detail ? `\n      ${detail}` : ''}`,
				);
			} catch (error) {
				counts.failed++;
				const message = error instanceof Error ? error.message : String(error);
				console.log(`  ✘ ${name}\n      ${message.split('\n').join('\n      ')}`);
			}
		},
		/** A failure outside any check (the run could not go on). @param {unknown} error */
		abort(error) {
			counts.failed++;
			console.log(`  ✘ ${error instanceof Error ? error.message : error}`);
		},
		/** Prints `<label>: N passed, N failed` and sets the exit code. */
		finish() {
			console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed`);
			process.exitCode = counts.failed === 0 ? 0 : 1;
		},
	};
}

module.exports = { createChecks };
