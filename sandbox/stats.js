// @ts-check
'use strict';
/**
 * What the sandbox counts about the requests it receives, for tests and benchmarks: the request
 * count and peak concurrency, the answer log, the API calls as received with their signature
 * check, and the durations behind the latency percentiles (GET /__sandbox/stats).
 */

/**
 * @typedef {{ method: string, path: string, route: string, cls: string, status: number, code: number|null, fault: string|null }} LogEntry
 * @typedef {{ method: string, path: string, query: string, contentType: string|null, body: string, code: number|null }
 *   & import('./api/gateway').Verification} RecordedCall
 */

/** Durations kept at most, so that a long benchmark's memory stays bounded. */
const MAX_DURATIONS = 1_000_000;

/**
 * The p-th percentile (0–100) of a list of numbers by the nearest-rank method (the smallest value
 * with at least p % of the values at or below it), or null for no values. The one percentile of
 * the repository: the benchmarks and the queue test use it too.
 * @param {number[]} values @param {number} p
 */
function percentile(values, p) {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

class RequestStats {
	/** @param {number} logLimit entries kept in the log and in the calls, the latest ones */
	constructor(logLimit) {
		this.logLimit = logLimit;
		this.requestCount = 0;
		this.inFlight = 0;
		this.peakInFlight = 0;
		/** @type {LogEntry[]} */
		this.log = [];
		/**
		 * Every API call that reached authentication, as received, with its key and signature check:
		 * what a test asserts about requests n8n built itself (GET /__sandbox/calls from outside).
		 * @type {RecordedCall[]}
		 */
		this.calls = [];
		/** @type {number[]} ms from a request's arrival to its answer, for the benchmark's percentiles */
		this.durationsMs = [];
	}

	/** Counters and lists emptied, as when new; requests in flight stay counted until they end. */
	reset() {
		Object.assign(this, new RequestStats(this.logLimit), { inFlight: this.inFlight });
	}

	/** An API request arrived; `ended` is called once its answer is sent or its socket closes. */
	arrived() {
		const arrived = performance.now();
		this.requestCount++;
		this.inFlight++;
		this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
		return () => {
			this.inFlight--;
			if (this.durationsMs.length < MAX_DURATIONS)
				this.durationsMs.push(performance.now() - arrived);
		};
	}

	/** @param {LogEntry} entry */
	record(entry) {
		this.log.push(entry);
		if (this.log.length > this.logLimit) this.log.splice(0, this.log.length - this.logLimit);
	}

	/** @param {RecordedCall} call */
	recordCall(call) {
		this.calls.push(call);
		if (this.calls.length > this.logLimit) this.calls.splice(0, this.calls.length - this.logLimit);
	}

	/** Request count, peak concurrency, answers by HTTP status and latency percentiles since the last reset. */
	summary() {
		/** @type {Record<string, number>} */
		const byStatus = {};
		for (const entry of this.log) byStatus[entry.status] = (byStatus[entry.status] ?? 0) + 1;
		return {
			requests: this.requestCount,
			peakInFlight: this.peakInFlight,
			byStatus,
			p50Ms: percentile(this.durationsMs, 50),
			p99Ms: percentile(this.durationsMs, 99),
		};
	}
}

module.exports = { RequestStats, percentile };
