// Prints the closing line "Tests: N passed, N failed" that CI reads to count the tests run.
class SummaryReporter {
	/** @param {unknown} _contexts @param {import('@jest/reporters').AggregatedResult} results */
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		process.stdout.write(
			`\nTests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
		);
	}
}
module.exports = SummaryReporter;
