/**
 * How often refused deliveries reach n8n's log: the first refusal of a workflow at once, then at
 * most one line per minute with the number of refusals since the last line, so that a flood of
 * forged deliveries cannot flood the log. In memory, per process; the caller gives the time (no
 * timer runs: refusals held back are counted into the next line, written at the next refusal a
 * minute or more after the last line).
 */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;

export class RefusalLog {
	/** Per workflow: when its last line was written, and the refusals since then not yet logged. */
	private readonly tallies = new Map<string, { loggedAt: number; held: number }>();

	/**
	 * Counts a refusal of `workflowId` at `nowMs`: the number of refusals the line to write now
	 * stands for (this one included), or null when no line is due yet.
	 */
	record(workflowId: string, nowMs: number): number | null {
		const tally = this.tallies.get(workflowId);
		if (tally !== undefined && nowMs - tally.loggedAt < REFUSAL_LOG_INTERVAL_MS) {
			tally.held++;
			return null;
		}
		this.tallies.set(workflowId, { loggedAt: nowMs, held: 0 });
		return (tally?.held ?? 0) + 1;
	}
}
