import { sleep, type ICredentialDataDecryptedObject } from 'n8n-workflow';

import { Sandbox, KEYS, WRONG_SECRET } from '../../sandbox';

export { Sandbox, KEYS, WRONG_SECRET };

export const PROMOTER_CENTER_URL = 'https://promoter.example.com';

/** Credential id used in workflows for a seeded key: pk_test_videomax_v2 → "videomax-v2". */
export function credentialId(apiKey: string): string {
	return apiKey.replace(/^pk_test_/, '').replace(/_/g, '-');
}

export function credentialFor(
	sandbox: Sandbox,
	apiKey: string,
	overrides: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject {
	const key = KEYS[apiKey];
	if (!key) throw new Error(`no seeded key ${apiKey}`);
	return {
		baseUrl: sandbox.url,
		apiKey,
		apiSecret: key.secret,
		signatureVersion: key.version,
		promoterCenterUrl: PROMOTER_CENTER_URL,
		...overrides,
	};
}

/** Every seeded key as a test credential, by credential id. */
export function allCredentials(sandbox: Sandbox): Record<string, ICredentialDataDecryptedObject> {
	return Object.fromEntries(
		Object.keys(KEYS).map((apiKey) => [credentialId(apiKey), credentialFor(sandbox, apiKey)]),
	);
}

/** A sandbox on 127.0.0.1 for the tests of one file, with fresh state before each test. */
export function useSandbox(options: ConstructorParameters<typeof Sandbox>[0] = {}): Sandbox {
	const sandbox = new Sandbox(options);
	beforeAll(() => sandbox.start());
	afterAll(() => sandbox.stop());
	beforeEach(() => sandbox.reset());
	return sandbox;
}

/**
 * The engine tests' request timeout, and the latency of a fault meant to outlast it. Both sit far
 * above a loopback answer and far apart: on a loaded machine a healthy request can take hundreds of
 * milliseconds, and it must neither time out nor let a delayed answer arrive in time.
 */
export const REQUEST_TIMEOUT_MS = 3000;
export const PAST_TIMEOUT_MS = 2 * REQUEST_TIMEOUT_MS;

/** The node's error for a request the service did not answer within REQUEST_TIMEOUT_MS. */
export const TIMED_OUT = `The service did not answer within ${REQUEST_TIMEOUT_MS} ms`;

/** The engine tests' request options: fast retries, and the timeout below the latency fault's. */
export const fastRetries = (concurrency: number) => ({
	maxRetries: 2,
	retryDelay: 10,
	timeout: REQUEST_TIMEOUT_MS,
	concurrency,
});

/**
 * A fault that holds the answer to the next `match` request past the timeout: the node reports
 * TIMED_OUT, and the sandbox records the request once the latency is over (see waitUntil).
 */
export const answerLostOnce = (
	match: Parameters<Sandbox['addFault']>[0]['match'],
): Parameters<Sandbox['addFault']>[0] => ({
	kind: 'latency',
	match,
	latencyMs: PAST_TIMEOUT_MS,
	times: 1,
});

/**
 * Resolves once `probe()` holds (a delayed request recorded by the sandbox, say), polling instead
 * of sleeping for a guessed time; fails naming `what` after `timeoutMs`.
 */
export async function waitUntil(
	probe: () => boolean,
	what: string,
	timeoutMs = 2 * PAST_TIMEOUT_MS,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!probe()) {
		if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}`);
		await sleep(20);
	}
}
