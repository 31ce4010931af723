/**
 * How long a learned skew is applied. After it the local clock is trusted again and the next
 * rejected timestamp teaches the skew anew: the host's clock may have been corrected (NTP) or
 * drifted further since. A clock that stays wrong costs one rejected request per service and
 * period, and its hint is shown again.
 */
export const CLOCK_SKEW_MAX_AGE_MS = 15 * 60_000;

/**
 * What an answer rejecting a timestamp taught: `none` (no usable Date header, or it agrees with
 * the skew applied: signing again cannot help), `known` (another request learned this skew
 * already) or `new`.
 */
export type SkewLesson = 'none' | 'known' | 'new';

/**
 * The service's clock as learned from the Date headers of rejected timestamps: service time minus
 * local time, in seconds, per service (its Base URL), each for CLOCK_SKEW_MAX_AGE_MS.
 */
export class ClockSkew {
	private readonly byService = new Map<string, { seconds: number; learnedAtMs: number }>();

	constructor(private readonly nowMs: () => number) {}

	/** The skew to apply to requests to `service`: 0 when none was learned or it has aged. */
	secondsFor(service: string): number {
		const learned = this.byService.get(service);
		if (learned === undefined) return 0;
		if (this.nowMs() - learned.learnedAtMs >= CLOCK_SKEW_MAX_AGE_MS) {
			this.byService.delete(service);
			return 0;
		}
		return learned.seconds;
	}

	/** The Unix time in seconds to sign a request to `service` with now, and the skew in it. */
	signingTime(service: string): { timestamp: string; skew: number } {
		const skew = this.secondsFor(service);
		return { timestamp: String(Math.floor(this.nowMs() / 1000) + skew), skew };
	}

	/** Learns from the Date header of an answer that rejected a timestamp signed with `applied`. */
	learn(service: string, applied: number, dateHeader: unknown): SkewLesson {
		const serviceMs = typeof dateHeader === 'string' ? Date.parse(dateHeader) : NaN;
		if (Number.isNaN(serviceMs)) return 'none';
		const measured = Math.round((serviceMs - this.nowMs()) / 1000);
		if (measured === applied) return 'none';
		// Requests in flight together learn the same skew: only the first is news.
		if (this.secondsFor(service) === measured) return 'known';
		this.byService.set(service, { seconds: measured, learnedAtMs: this.nowMs() });
		return 'new';
	}
}
