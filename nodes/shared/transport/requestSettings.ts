/**
 * How each request is sent and retried. The transport is given these (the item loop and the
 * trigger parse them from the node's Options, helpers/runOptions.ts): it reads no node parameter.
 */
export interface RequestSettings {
	maxRetries: number;
	timeoutMs: number;
	retryDelayMs: number;
}

export const DEFAULT_REQUEST_SETTINGS: RequestSettings = {
	maxRetries: 2,
	timeoutMs: 30_000,
	retryDelayMs: 500,
};
