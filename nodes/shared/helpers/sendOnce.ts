/**
 * Sending a write at most once per workflow, across executions, restarts and queue-mode workers,
 * with n8n's own deduplication store: the one the Remove Duplicates node keeps in n8n's database
 * (`this.helpers.checkProcessedAndRecord`), scoped to the workflow.
 *
 * n8n's store is a read-modify-write of ONE database row per workflow and scope, without a lock
 * (find the row, add the entry, write the row back). So:
 * - in one n8n process the package serializes its own calls per workflow (`serialized` below): the
 *   items of one execution and the executions of one main or worker never interleave there;
 * - across processes (queue mode's workers) two writes can interleave, and the later one drops the
 *   entry of the other (a lost update), even an entry confirmed a moment before; the first write
 *   of a workflow can also fail on the row's unique key when another process inserts it at the
 *   same time. So after a send the entry is confirmed (read again, written again when lost); every
 *   store call also writes again the keys this process sent lately (`sentLately`), so that an
 *   entry another process dropped comes back at this process's next call; a key this process sent
 *   is skipped without asking the store; and a failed check is tried once more.
 * What remains: two deliveries of the same transaction checked on two workers at the same moment
 * both find it new and are both sent; and an entry dropped by another worker's write is missing
 * until the worker that sent it calls the store again: a repeat given to a third process in that
 * gap is sent again.
 */
import {
	NodeOperationError,
	type ICheckProcessedOptions,
	type IDataObject,
	type IExecuteFunctions,
} from 'n8n-workflow';

import { mayHaveBeenRecorded } from '../transport/errors';
import { asNodeError, type NodeError } from './itemLoop';
import {
	hasDeduplicationStore,
	MINIMUM_N8N_VERSION,
	type DeduplicationStore,
} from './n8nCompatibility';

/**
 * Entries kept per workflow, oldest dropped first (Remove Duplicates' default History Size).
 * Payment providers redeliver for days (Stripe: up to 3 days); 10,000 purchases covers that for
 * most shops. The whole list is read and written on each call (about 27 bytes per entry).
 */
export const MAX_TRACKED_ENTRIES = 10_000;

/** How many times an entry is confirmed after a send (each "new" answer has written it again). */
export const CONFIRM_ATTEMPTS = 3;

/** How many times the check before a send is tried (a second try gets past an insert race). */
export const CHECK_ATTEMPTS = 2;

/** The store's settings: a list of entries, as Remove Duplicates' "Value Is New" keeps. */
export const STORE_OPTIONS: ICheckProcessedOptions = {
	mode: 'entries',
	maxEntries: MAX_TRACKED_ENTRIES,
};

/** The store's scope: the workflow, so that every node and execution of it shares the entries. */
export const STORE_SCOPE = 'workflow';

export interface SendOnceGuard {
	/** The option's label, named in every message. */
	option: string;
	/** The value recorded in the store (namespaced, so that a Remove Duplicates node's values never match it). */
	key: string;
	/** What is sent once, for messages: `transaction "txn_1"`. */
	subject: string;
	/** The item given, without a request, when an earlier execution sent it. */
	skipped: IDataObject;
}

/**
 * Keys this process sent, per workflow, oldest first: written again with each store call of the
 * workflow (see above). Bounded: about 40 bytes a key.
 */
export const KEYS_SENT_LATELY = 500;
const sentLately = new Map<string, string[]>();

function rememberSent(workflowId: string, key: string): void {
	const keys = (sentLately.get(workflowId) ?? []).filter((kept) => kept !== key);
	keys.push(key);
	sentLately.set(workflowId, keys.slice(-KEYS_SENT_LATELY));
}

/** Store calls per workflow, one after another within this process. */
const queues = new Map<string, Promise<void>>();

async function serialized<T>(queue: string, task: () => Promise<T>): Promise<T> {
	const previous = queues.get(queue) ?? Promise.resolve();
	const run = previous.then(task);
	const tail = run.then(
		() => undefined,
		() => undefined,
	);
	queues.set(queue, tail);
	try {
		return await run;
	} finally {
		if (queues.get(queue) === tail) queues.delete(queue);
	}
}

function appendDescription(error: NodeError, text: string): void {
	error.description = error.description ? `${error.description}\n\n${text}` : text;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * Sends `send()` unless an earlier execution of this workflow recorded `guard.key`; records the
 * key before sending. A send that fails where the service cannot have recorded anything (its
 * refusal, a request never sent) forgets the key, so that a later run sends it. A send whose
 * outcome is unknown (timeout, dropped connection, 5xx, cut-off answer) keeps the key: the
 * transport does not send such a write again either, and the redelivery that follows a failed
 * execution would otherwise record a second conversion, the very thing the option prevents. Its
 * error says so, and how to send it when the dashboard shows nothing.
 */
export async function sendOnce(
	context: IExecuteFunctions,
	itemIndex: number,
	guard: SendOnceGuard,
	send: () => Promise<IDataObject>,
): Promise<IDataObject> {
	const { helpers } = context;
	if (!hasDeduplicationStore(helpers)) {
		throw new NodeOperationError(
			context.getNode(),
			`${guard.option} needs n8n's deduplication store (this.helpers.checkProcessedAndRecord), which this n8n does not offer`,
			{
				itemIndex,
				description: `Nothing was sent. Run the workflow in n8n ${MINIMUM_N8N_VERSION} or newer, or turn ${guard.option} off.`,
			},
		);
	}
	const queue = context.getWorkflow().id;
	if (!queue) {
		// n8n's store is keyed by the workflow's ID (and asserts it); an unsaved workflow has none.
		throw new NodeOperationError(
			context.getNode(),
			`${guard.option} needs a saved workflow: n8n keeps its deduplication store per workflow ID`,
			{
				itemIndex,
				description: `Nothing was sent. Save the workflow, or turn ${guard.option} off.`,
			},
		);
	}
	const deduplication: DeduplicationStore = helpers;
	const store = {
		check: async () => {
			const items = [
				guard.key,
				...(sentLately.get(queue) ?? []).filter((key) => key !== guard.key),
			];
			const answer = await serialized(
				queue,
				async () => await deduplication.checkProcessedAndRecord(items, STORE_SCOPE, STORE_OPTIONS),
			);
			return answer.processed.some((item) => String(item) === guard.key);
		},
		forget: async () =>
			await serialized(
				queue,
				async () => await deduplication.removeProcessed([guard.key], STORE_SCOPE, STORE_OPTIONS),
			),
	};

	// This process sent it: skipped without asking the store, where another process may have dropped it.
	if (sentLately.get(queue)?.includes(guard.key)) return { ...guard.skipped };
	if (await checkBeforeSending(context, itemIndex, guard, store.check)) return { ...guard.skipped };

	let result: IDataObject;
	try {
		result = await send();
	} catch (caught) {
		const error = asNodeError(context, caught, itemIndex);
		if (mayHaveBeenRecorded(error)) {
			appendDescription(
				error,
				`${guard.option} keeps ${guard.subject} as sent, so later runs of this workflow skip it. If the brand dashboard shows no record of it, send it with ${guard.option} off.`,
			);
		} else {
			try {
				await store.forget();
			} catch (forgetError) {
				appendDescription(
					error,
					`${guard.option} could not forget ${guard.subject} (${messageOf(forgetError)}), so later runs of this workflow skip it: send it with ${guard.option} off.`,
				);
			}
		}
		throw error;
	}
	rememberSent(queue, guard.key);
	await confirm(context, guard, store.check);
	return result;
}

async function checkBeforeSending(
	context: IExecuteFunctions,
	itemIndex: number,
	guard: SendOnceGuard,
	check: () => Promise<boolean>,
): Promise<boolean> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await check();
		} catch (error) {
			if (attempt < CHECK_ATTEMPTS) continue;
			throw new NodeOperationError(
				context.getNode(),
				`${guard.option} could not check n8n's deduplication store: ${messageOf(error)}`,
				{
					itemIndex,
					description: `Nothing was sent (tried ${CHECK_ATTEMPTS} times). Run the item again, or turn ${guard.option} off. If a Remove Duplicates node in this workflow keeps its history for the whole workflow, set its Scope to Node.`,
				},
			);
		}
	}
}

/**
 * After a send, reads the entry back: a "new" answer means another process's write dropped it
 * (and this call has written it again), so it is read once more, up to CONFIRM_ATTEMPTS. The
 * service has recorded the item by now, so a failure here does not fail the item: a hint says
 * that a repeat may be sent again.
 */
async function confirm(
	context: IExecuteFunctions,
	guard: SendOnceGuard,
	check: () => Promise<boolean>,
): Promise<void> {
	let lastProblem = 'another write dropped it each time';
	for (let attempt = 1; attempt <= CONFIRM_ATTEMPTS; attempt++) {
		try {
			if (await check()) return;
		} catch (error) {
			lastProblem = messageOf(error);
		}
	}
	const message = `${guard.option}: ${guard.subject} was sent, but its entry in n8n's deduplication store could not be confirmed in ${CONFIRM_ATTEMPTS} tries (${lastProblem}); a repeat of it may be sent again.`;
	context.addExecutionHints({ message, location: 'outputPane' });
	context.logger.warn(message);
}
