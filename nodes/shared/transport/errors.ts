import type { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Envelope codes of the spec's error table. */
export const ENVELOPE_CODES = {
	success: 0,
	notFound: 1000001,
	authentication: 1000004,
	invalidRequest: 1000005,
	otherFailure: 6000000,
} as const;

/** Keys this package sets on a node error's context (read by the item loop). */
export const ERROR_CONTEXT = {
	/** The envelope's non-zero code. */
	envelopeCode: 'envelopeCode',
	/** True when the request may have reached the service, so the item may have been recorded. */
	mayHaveBeenRecorded: 'mayHaveBeenRecorded',
} as const;

/** Whether a failed request may have reached the service, as the transport marked its error. */
export function mayHaveBeenRecorded(
	error: Pick<NodeApiError | NodeOperationError, 'context'>,
): boolean {
	return error.context[ERROR_CONTEXT.mayHaveBeenRecorded] === true;
}

/** Server messages the code acts on (the spec's wording). */
export const SERVER_MESSAGES = {
	timestampExpired: 'The request timestamp is invalid or expired',
	signatureFailed: 'Signature verification failed',
	/** Endpoint 5's duplicate signup ("the conversion event already exists"); its exact text is not in the spec. */
	alreadyExists: /already exists/i,
	/** The spec's "server error; retry allowed" answers. */
	retryAllowed: ['Failed to apply the conversion adjustment', 'Failed to retrieve promoter data'],
} as const;

/**
 * Every authentication message of the spec (code 1000004, and `Missing required permission`
 * which the promoter endpoints report under 6000000), each with what the user can do about it.
 */
export const AUTHENTICATION_HINTS: ReadonlyArray<{ message: string; hint: string }> = [
	{
		message: 'The API key and signature are required',
		hint: 'The request reached the service without X-Api-Key or X-Api-Sign. Check that the credential has an API Key and that no proxy strips these headers.',
	},
	{
		message: 'API Key or signature cannot be empty',
		hint: 'The request reached the service without X-Api-Key or X-Api-Sign. Check that the credential has an API Key and that no proxy strips these headers.',
	},
	{
		message: 'The API key was not found',
		hint: 'The API Key does not exist or was deleted. Copy the key (pk_…) again from the brand dashboard (product settings → developer integration), or create a new one.',
	},
	{
		message: 'This endpoint requires signature version 2',
		hint: 'This is a v1 (legacy) key and the endpoint accepts v2 keys only. Create a new key in the dashboard (it will be v2), set Signature Version to v2 in the credential, verify, then delete the v1 key.',
	},
	{
		message: 'The request timestamp is required',
		hint: 'v2 keys need the X-Api-Timestamp header. Check that no proxy strips it.',
	},
	{
		message: SERVER_MESSAGES.timestampExpired,
		hint: "The clock of the n8n host differs from the service's by more than 300 seconds. Synchronise the host clock (NTP).",
	},
	{
		message: SERVER_MESSAGES.signatureFailed,
		hint: 'Check that the API Secret belongs to this API Key, that Signature Version matches the key (shown in the dashboard), and that no proxy or gateway rewrites the body or the query string.',
	},
	{
		message: 'The API key is disabled',
		hint: 'Enable the key in the brand dashboard, or use another key.',
	},
	{
		message: 'The API key has expired',
		hint: 'Create a new key in the brand dashboard and update the credential.',
	},
	{
		message: 'The client IP address is not allowlisted',
		hint: "The key has an IP allowlist that does not contain the n8n host's outgoing address. Add that address (or its CIDR range) to the key's allowlist in the dashboard.",
	},
	{
		message: 'Missing required permission:',
		hint: "The key has a permission list without the permission this operation needs. Add it to the key's permissions in the dashboard (conversion:adjust for Refund, promoter:read for the promoter reads), or use a key without a permission list.",
	},
];

export function isRetryAllowedMessage(message: string): boolean {
	return (SERVER_MESSAGES.retryAllowed as readonly string[]).includes(message);
}

export function authenticationHint(message: string): string | undefined {
	return AUTHENTICATION_HINTS.find((entry) => message.startsWith(entry.message))?.hint;
}

const MESSAGE_HINTS: ReadonlyArray<{ pattern: RegExp; hint: string }> = [
	{
		pattern: /campaign/i,
		hint: 'Check in the brand dashboard that the product has the campaign this operation needs and that it is in progress (not started, paused and ended campaigns fail).',
	},
	{
		pattern: /^Failed to (apply|retrieve)/,
		hint: 'A temporary failure on the service side; the request is safe to retry.',
	},
	{
		pattern: /already been voided/,
		hint: 'The conversion was voided (chargeback, fraud or test order); a voided conversion cannot be refunded.',
	},
	{
		pattern: /Multiple conversion records/,
		hint: 'Several conversions carry this transaction ID, so the service cannot pick one. Adjust it in the brand dashboard.',
	},
	{
		pattern: /does not support refunds/,
		hint: 'Only paid conversions (purchases, or custom events with a positive conversion value) can be refunded.',
	},
	{
		pattern: /transaction was not found/,
		hint: 'No conversion of this product carries this transaction ID. Check that it is exactly the ID sent with Track Purchase.',
	},
	{
		pattern: /promoter was not found/,
		hint: 'The user is not a promoter of this product yet: call Promoter Login for the user first.',
	},
	{
		pattern: SERVER_MESSAGES.alreadyExists,
		hint: 'This signup was reported before for the same invited user; a signup counts once per user.',
	},
];

const CODE_HINTS: Record<number, string> = {
	[ENVELOPE_CODES.notFound]:
		'The referenced thing does not exist for this product. Check the IDs sent.',
	[ENVELOPE_CODES.invalidRequest]:
		'The service refused the request as invalid. Check the parameters named in the message.',
	[ENVELOPE_CODES.otherFailure]:
		'The service could not complete the request. Check the parameters named in the message.',
};

/** What to do about an envelope error, for the error's description. */
export function remedyFor(code: number, message: string): string {
	return (
		authenticationHint(message) ??
		MESSAGE_HINTS.find((entry) => entry.pattern.test(message))?.hint ??
		CODE_HINTS[code] ??
		'Check the message above and the parameters sent.'
	);
}
