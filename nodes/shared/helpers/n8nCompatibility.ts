import * as n8nWorkflow from 'n8n-workflow';
import type { DeduplicationHelperFunctions, IPollFunctions } from 'n8n-workflow';

/** The oldest n8n release the package supports and is tested on (README: Compatibility). */
export const MINIMUM_N8N_VERSION = '1.85';

/**
 * Refuses to load in an n8n older than the floor, with a message n8n's log shows. n8n lends its
 * own n8n-workflow to community packages, and `NodeConnectionTypes` arrived in n8n-workflow 1.83,
 * the one n8n 1.85 ships. Below it the node misbehaves rather than fails (n8n 1.60 ran it as an AI
 * tool in every workflow: a Refund was applied and its webhook never answered). A plain Error,
 * not a TypeError, which n8n's loader would replace with its generic "Class could not be found".
 */
export function assertSupportedN8n(lentWorkflow: Partial<typeof n8nWorkflow> = n8nWorkflow): void {
	if (lentWorkflow.NodeConnectionTypes !== undefined) return;
	throw new Error(
		`n8n-nodes-affiliate-tracking needs n8n ${MINIMUM_N8N_VERSION} or newer; this n8n is older (its n8n-workflow has no NodeConnectionTypes). Update n8n, or uninstall the package.`,
	);
}

/**
 * The main connection's name in every n8n release. `NodeConnectionTypes.Main` says the same, but
 * reading it before `assertSupportedN8n` has run would turn an old n8n's clear message into a
 * TypeError.
 */
export const MAIN_CONNECTION = 'main';

/**
 * n8n's own default time budget of a poll. n8n 2.38 and later tell it through `getPollBudgetMs`;
 * earlier releases have no such call, and the trigger then keeps to this default.
 */
export const DEFAULT_POLL_BUDGET_MS = 5 * 60 * 1000;

export function pollBudgetMs(context: IPollFunctions): number {
	const reported = (context as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	return typeof reported === 'function' ? reported.call(context) : DEFAULT_POLL_BUDGET_MS;
}

/**
 * The key under which n8n 2.35 and later read a webhook description's native resolvers
 * (n8n-workflow's `WEBHOOK_RESOLVERS`, a `Symbol.for` shared by every copy of n8n-workflow), or
 * undefined in an older n8n, which has none and evaluates the description's expressions instead.
 */
export function webhookResolversKey(
	lentWorkflow: Partial<typeof n8nWorkflow> = n8nWorkflow,
): typeof n8nWorkflow.WEBHOOK_RESOLVERS | undefined {
	const key: unknown = lentWorkflow.WEBHOOK_RESOLVERS;
	return typeof key === 'symbol' ? (key as typeof n8nWorkflow.WEBHOOK_RESOLVERS) : undefined;
}

/** The calls of n8n's deduplication store (the Remove Duplicates node's) that the package uses. */
export type DeduplicationStore = Pick<
	DeduplicationHelperFunctions,
	'checkProcessedAndRecord' | 'removeProcessed'
>;

/**
 * Whether the execute context's helpers offer n8n's deduplication store. Every supported release
 * does (n8n 1.85 has it); a host that lends a narrower context (an older n8n, another runner)
 * may not, and the option that needs the store then says so instead of throwing a TypeError.
 */
export function hasDeduplicationStore(helpers: object): helpers is DeduplicationStore {
	const candidate = helpers as Partial<DeduplicationStore>;
	return (
		typeof candidate.checkProcessedAndRecord === 'function' &&
		typeof candidate.removeProcessed === 'function'
	);
}
