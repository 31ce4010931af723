import type { IPollFunctions } from 'n8n-workflow';

/**
 * The main connection's name in every n8n release. `NodeConnectionTypes.Main` says the same but
 * exists only from n8n-workflow 1.83 (about n8n 1.85); importing it would keep every older n8n
 * from loading the package at all.
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
