/**
 * Cursors: where a run starts and where the next one should. A cursor is `<timeMs>:<id>`, naming
 * an anchor event (its time in Unix milliseconds and the provider's ID for it); a run reads the
 * events strictly after its anchor. The ID may be empty: the anchor is then a moment, and the run
 * starts at the first event at or after it (a first run starts so, `firstRunDays` back).
 *
 * Each emitted item carries the cursor to save if the workflow stopped after it: the newest event
 * the run emitted at least `overlapMinutes` older than the item, so that the next run reads that
 * stretch again (events a provider lists late); the run's own start anchor when none is that old.
 * When a run stops at Max Events and no item's cursor got past the start anchor, each item's
 * cursor is the item itself: the next run would otherwise read the same events again, forever.
 */

/** An anchor: an event (id set) or a moment (id empty). */
export interface Anchor {
	timeMs: number;
	id: string;
}

/** An emitted event as the cursors see it: its anchor. */
export type Placed = Anchor;

const CURSOR = /^(\d{1,15}):([^\s]{0,255})$/;

/** The anchor a cursor names, or null when it is not `<timeMs>:<id>`. */
export function parseCursor(cursor: string): Anchor | null {
	const match = CURSOR.exec(cursor);
	if (match === null) return null;
	return { timeMs: Number(match[1]), id: match[2] };
}

export function formatCursor({ timeMs, id }: Anchor): string {
	return `${timeMs}:${id}`;
}

/**
 * The cursor of each emitted event, in emission order (oldest first). `start` is the run's own
 * start anchor; `stoppedAtMax` says that the run stopped at Max Events with events left to read.
 */
export function cursorsOf(
	events: readonly Placed[],
	start: Anchor,
	overlapMs: number,
	stoppedAtMax: boolean,
): string[] {
	const startCursor = formatCursor(start);
	const cursors: string[] = [];
	// The newest emitted event at least overlapMs older than the current one. Providers list events
	// oldest first, so it only moves forward. An event listed out of time order may get less
	// overlap than asked, never a cursor past itself (nothing is skipped).
	let anchor = -1;
	events.forEach((event, index) => {
		const limit = event.timeMs - overlapMs;
		while (anchor + 1 <= index && events[anchor + 1].timeMs <= limit) anchor++;
		cursors.push(anchor < 0 ? startCursor : formatCursor(events[anchor]));
	});
	const last = cursors[cursors.length - 1];
	if (stoppedAtMax && last === startCursor) return events.map(formatCursor);
	return cursors;
}
