// @ts-check
'use strict';
/**
 * The harness's deduplication store, the one n8n-core's engine reaches through
 * `DataDeduplicationService` in the engine tests and the benchmarks.
 */
/**
 * @import {
 *   DeduplicationItemTypes, DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions,
 *   IDataDeduplicator, IDeduplicationOutput
 * } from 'n8n-workflow'
 */
const { createHash } = require('node:crypto');
const { DataDeduplicationService } = require('n8n-core');

/** n8n's error when two calls insert a row at once. */
const DUPLICATE_KEY =
	'duplicate key value violates unique constraint "PK_processed_data" (harness store)';

/**
 * @typedef {object} StoredRow
 * @property {ICheckProcessedOptions['mode']} mode
 * @property {string[]} data
 */

/**
 * THE HARNESS'S DEDUPLICATION STORE, an in-memory stand-in for n8n's own (the Remove Duplicates
 * node's, `n8n/dist/deduplication/deduplication-helper.js`, a table in n8n's database), which
 * n8n-core's engine reaches through `DataDeduplicationService`. It keeps n8n's semantics for mode
 * `entries`: one row per workflow and scope (`''` for the workflow, `n:<node id>` for a node);
 * every call reads the row, changes it and writes it back, with a pause between the read and the
 * write (a database round trip) and no lock, so that concurrent calls can drop each other's
 * entries as in n8n; the first write inserts the row and fails when another call inserted it in
 * between (the row's primary key); values are kept as n8n keeps them, the MD5 (base64) of their
 * text; `maxEntries` drops the oldest. The real store, in PostgreSQL, is proven by the queue-mode
 * test (`e2e/test-queue.js`). Tests can make the next calls fail or the next writes get lost.
 * @implements {IDataDeduplicator}
 */
class HarnessDeduplicationStore {
	constructor() {
		/** @type {Map<string, StoredRow>} */
		this.rows = new Map();
		/** Every call, in order. @type {Array<{ call: string, items: DeduplicationItemTypes[] }>} */
		this.calls = [];
		/** @private */
		this.failingCalls = 0;
		/** @private */
		this.lostWrites = 0;
	}

	/** Forgets every row, call and planned fault. */
	reset() {
		this.rows.clear();
		this.calls = [];
		this.failingCalls = 0;
		this.lostWrites = 0;
	}

	/**
	 * The next `count` calls fail before reading, as n8n's fails when two processes insert a
	 * workflow's first row at once.
	 * @param {number} count
	 */
	failNextCalls(count) {
		this.failingCalls = count;
	}

	/**
	 * The next `count` writes are lost, as when another process wrote the row it had read before.
	 * @param {number} count
	 */
	loseNextWrites(count) {
		this.lostWrites = count;
	}

	/**
	 * Whether a workflow's row holds a value (scope `workflow`).
	 * @param {string} workflowId @param {DeduplicationItemTypes} value @returns {boolean}
	 */
	has(workflowId, value) {
		const row = this.rows.get(
			HarnessDeduplicationStore.rowKey('workflow', { workflow: { id: workflowId, active: false } }),
		);
		return row?.data.includes(HarnessDeduplicationStore.hash(value)) ?? false;
	}

	/**
	 * @param {DeduplicationScope} scope @param {ICheckProcessedContextData} contextData
	 * @returns {string}
	 */
	static rowKey(scope, contextData) {
		if (!contextData.workflow.id) throw new Error('The harness store needs a workflow id');
		const context = scope === 'node' ? `n:${contextData.node?.id}` : '';
		return `${contextData.workflow.id}\u0000${context}`;
	}

	/** @param {DeduplicationItemTypes} value @returns {string} */
	static hash(value) {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	/**
	 * @private @param {string} call @param {DeduplicationItemTypes[]} items
	 * @param {ICheckProcessedOptions} options
	 */
	start(call, items, options) {
		this.calls.push({ call, items: [...items] });
		if (options.mode !== 'entries') throw new Error('The harness store keeps mode "entries" only');
		if (this.failingCalls > 0) {
			this.failingCalls--;
			throw new Error(DUPLICATE_KEY);
		}
	}

	/** @private @param {string} key @returns {Promise<StoredRow | undefined>} */
	async read(key) {
		await new Promise((resolve) => setImmediate(resolve));
		const row = this.rows.get(key);
		return row === undefined ? undefined : structuredClone(row);
	}

	/** @private @param {string} key @param {StoredRow} row @param {boolean} insert */
	async write(key, row, insert) {
		await new Promise((resolve) => setImmediate(resolve));
		if (this.lostWrites > 0) {
			this.lostWrites--;
			return;
		}
		if (insert && this.rows.has(key)) throw new Error(DUPLICATE_KEY);
		this.rows.set(key, structuredClone(row));
	}

	/**
	 * @param {DeduplicationItemTypes[]} items @param {DeduplicationScope} scope
	 * @param {ICheckProcessedContextData} contextData @param {ICheckProcessedOptions} options
	 * @returns {Promise<IDeduplicationOutput>}
	 */
	async checkProcessedAndRecord(items, scope, contextData, options) {
		this.start('checkProcessedAndRecord', items, options);
		const key = HarnessDeduplicationStore.rowKey(scope, contextData);
		const hashes = items.map(HarnessDeduplicationStore.hash);
		const row = await this.read(key);
		if (row === undefined) {
			const data = options.maxEntries ? hashes.slice(-options.maxEntries) : hashes;
			await this.write(key, { mode: options.mode, data }, true);
			return { new: [...items], processed: [] };
		}
		if (row.mode !== options.mode)
			throw new Error('Deduplication data was originally saved with an incompatible setting');
		/** @type {IDeduplicationOutput} */
		const output = { new: [], processed: [] };
		const known = new Set(row.data);
		hashes.forEach((hash, index) => {
			if (known.has(hash)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				row.data.push(hash);
			}
		});
		if (options.maxEntries) row.data.splice(0, row.data.length - options.maxEntries);
		await this.write(key, row, false);
		return output;
	}

	/**
	 * @param {DeduplicationItemTypes[]} items @param {DeduplicationScope} scope
	 * @param {ICheckProcessedContextData} contextData @param {ICheckProcessedOptions} options
	 * @returns {Promise<void>}
	 */
	async removeProcessed(items, scope, contextData, options) {
		this.start('removeProcessed', items, options);
		const key = HarnessDeduplicationStore.rowKey(scope, contextData);
		const row = await this.read(key);
		if (row === undefined) return;
		for (const hash of items.map(HarnessDeduplicationStore.hash)) {
			const index = row.data.indexOf(hash);
			if (index !== -1) row.data.splice(index, 1);
		}
		await this.write(key, row, false);
	}

	/**
	 * @param {DeduplicationScope} scope @param {ICheckProcessedContextData} contextData
	 * @returns {Promise<void>}
	 */
	async clearAllProcessedItems(scope, contextData) {
		this.rows.delete(HarnessDeduplicationStore.rowKey(scope, contextData));
	}

	/**
	 * @param {DeduplicationScope} scope @param {ICheckProcessedContextData} contextData
	 * @returns {Promise<number>}
	 */
	async getProcessedDataCount(scope, contextData) {
		return this.rows.get(HarnessDeduplicationStore.rowKey(scope, contextData))?.data.length ?? 0;
	}
}

/** The harness's store, shared by every run of a test file (reset it in `beforeEach`). */
const deduplicationStore = new HarnessDeduplicationStore();

/** Hands n8n-core the harness's store, once per process (n8n-core allows one). */
async function useHarnessDeduplicationStore() {
	try {
		DataDeduplicationService.getInstance();
	} catch {
		await DataDeduplicationService.init(deduplicationStore);
	}
}

module.exports = { deduplicationStore, useHarnessDeduplicationStore };
