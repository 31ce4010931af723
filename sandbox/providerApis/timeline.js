// @ts-check
'use strict';
/**
 * One provider's recorded events in one array, in order of a key (a time, or an ID that sorts as
 * time), events of equal key in the order they were recorded. A listing finds its positions by
 * binary search and walks from there, so that no request copies the array (benchmarks list
 * 10,000+ events thousands of times).
 */

/**
 * @template T
 * @typedef {{ key: number|string, seq: number, value: T }} Entry
 *   `seq`: the recording order, which breaks ties between equal keys and names a position
 *   that later recordings do not move (a pagination token keeps it)
 */

/** @template T */
class Timeline {
	constructor() {
		/** @type {Entry<T>[]} */
		this.entries = [];
		this.recorded = 0;
	}

	get length() {
		return this.entries.length;
	}

	/** @param {number} index @returns {Entry<T>} */
	at(index) {
		return this.entries[index];
	}

	/**
	 * Adds an event after those of equal key: a push when it is the latest, as it mostly is.
	 * @param {number|string} key @param {T} value @returns {Entry<T>}
	 */
	add(key, value) {
		const entry = { key, seq: this.recorded++, value };
		const index = this.position(key, Infinity);
		if (index === this.entries.length) this.entries.push(entry);
		else this.entries.splice(index, 0, entry);
		return entry;
	}

	clear() {
		this.entries = [];
	}

	/**
	 * The index of the first entry at or after (key, seq): `seq` -1 for the first of a key,
	 * Infinity for the first past it.
	 * @param {number|string} key @param {number} seq
	 */
	position(key, seq) {
		let low = 0;
		let high = this.entries.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			const entry = this.entries[middle];
			if (entry.key < key || (entry.key === key && entry.seq < seq)) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	/** @param {Entry<T>} entry a recorded entry @returns {number} its index */
	indexOf(entry) {
		return this.position(entry.key, entry.seq);
	}

	/**
	 * Up to `limit` entries that match, from index `start` one `step` at a time within [low, high),
	 * and whether another matching one lies beyond them.
	 * @param {{ start: number, step: 1|-1, low?: number, high?: number, limit: number,
	 *   matches?: (value: T) => boolean }} walk
	 * @returns {{ entries: Entry<T>[], hasMore: boolean }}
	 */
	walk({ start, step, low = 0, high = this.entries.length, limit, matches = () => true }) {
		/** @type {Entry<T>[]} */
		const entries = [];
		for (let index = start; index >= low && index < high; index += step) {
			const entry = this.entries[index];
			if (!matches(entry.value)) continue;
			if (entries.length === limit) return { entries, hasMore: true };
			entries.push(entry);
		}
		return { entries, hasMore: false };
	}
}

module.exports = { Timeline };
