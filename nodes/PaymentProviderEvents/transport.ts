/**
 * The one place this node sends from: n8n's HTTP helper with the provider's credential, which
 * authenticates the request (Bearer secret key or API key, Apple's ES256 token). Every answer
 * that is not a success becomes a node error here: a 429 is waited out (Retry-After, at most
 * MAX_RATE_LIMIT_WAITS times), 401 and 403 name the credential, any other status keeps the
 * provider's own message.
 */
import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type IN8nHttpFullResponse,
	type JsonObject,
} from 'n8n-workflow';

/** How many 429 answers are waited out before the run fails. */
export const MAX_RATE_LIMIT_WAITS = 5;
/** The wait when a 429 names none, and the longest wait whatever it names. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;
export const MAX_RETRY_AFTER_SECONDS = 60;
const REQUEST_TIMEOUT_MS = 60_000;

/** Who is asked, for the messages: the provider's name and its credential's. */
export interface Recipient {
	provider: string;
	credentialType: string;
	credentialName: string;
}

export interface ProviderRequest {
	method: IHttpRequestMethods;
	/** The whole URL, query string included (built by the provider module, sent as it is). */
	url: string;
	body?: IDataObject;
}

/** Sends requests for one input item. */
export type Send = (request: ProviderRequest) => Promise<unknown>;

/** The seconds a 429 asks to wait: Retry-After in seconds or as a date, within the bounds. */
export function retryAfterSeconds(header: unknown, nowMs: number): number {
	const text = Array.isArray(header) ? String(header[0]) : typeof header === 'string' ? header : '';
	let seconds = DEFAULT_RETRY_AFTER_SECONDS;
	if (/^\s*\d+(\.\d+)?\s*$/.test(text)) seconds = Number(text);
	else if (text.trim() !== '' && Number.isFinite(Date.parse(text))) {
		seconds = Math.max(0, (Date.parse(text) - nowMs) / 1000);
	}
	return Math.min(MAX_RETRY_AFTER_SECONDS, Math.ceil(seconds));
}

/** The provider's own words for a failure, wherever its error body keeps them. */
export function providerMessageOf(body: unknown): string | null {
	if (typeof body === 'string') return body.trim() === '' ? null : body.trim().slice(0, 500);
	if (body === null || typeof body !== 'object') return null;
	const object = body as IDataObject;
	const error = object.error;
	const candidates = [
		// Stripe: { error: { message } }; Paddle: { error: { detail, code } }.
		typeof error === 'object' && error !== null ? (error as IDataObject).message : undefined,
		typeof error === 'object' && error !== null ? (error as IDataObject).detail : undefined,
		// Apple: { errorCode, errorMessage }.
		object.errorMessage,
		object.message,
		typeof error === 'string' ? error : undefined,
	];
	const found = candidates.find((value) => typeof value === 'string' && value !== '');
	return typeof found === 'string' ? found : null;
}

function headerOf(response: IN8nHttpFullResponse, name: string): unknown {
	const headers = (response.headers ?? {}) as IDataObject;
	const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
	return key === undefined ? undefined : headers[key];
}

function parsedBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		// Not JSON: the caller reports the text as it came.
		return body;
	}
}

function failure(
	context: IExecuteFunctions,
	itemIndex: number,
	recipient: Recipient,
	request: ProviderRequest,
	response: IN8nHttpFullResponse,
): NodeApiError {
	const status = response.statusCode;
	const body = parsedBody(response.body);
	const said = providerMessageOf(body);
	const where = `${request.method} ${request.url.split('?')[0]}`;
	const errorResponse = (typeof body === 'object' && body !== null ? body : {}) as JsonObject;
	if (status === 401 || status === 403) {
		return new NodeApiError(context.getNode(), errorResponse, {
			message: `${recipient.provider} refused the ${recipient.credentialName} credential (HTTP ${status})${said === null ? '' : `: ${said}`}`,
			description: `${where}. Check the ${recipient.credentialName} credential: the key, its environment (live or test, production or sandbox) and that it may read events.`,
			httpCode: String(status),
			itemIndex,
		});
	}
	return new NodeApiError(context.getNode(), errorResponse, {
		message: `${recipient.provider} answered HTTP ${status}${said === null ? '' : `: ${said}`}`,
		description: `${where}. The provider's answer is kept as it came; see its message.`,
		httpCode: String(status),
		itemIndex,
	});
}

/**
 * A sender for one item: each request through n8n's helper with `recipient`'s credential, 429s
 * waited out, and any other failure thrown as a node error of `itemIndex`.
 */
export function senderFor(
	context: IExecuteFunctions,
	itemIndex: number,
	recipient: Recipient,
): Send {
	return async (request) => {
		for (let waits = 0; ; waits++) {
			let response: IN8nHttpFullResponse;
			try {
				// n8n's helper takes its context as `this`.
				response = (await context.helpers.httpRequestWithAuthentication.call(
					context,
					recipient.credentialType,
					{
						method: request.method,
						url: request.url,
						...(request.body === undefined ? {} : { body: request.body }),
						json: true,
						returnFullResponse: true,
						ignoreHttpStatusErrors: true,
						timeout: REQUEST_TIMEOUT_MS,
					},
				)) as IN8nHttpFullResponse;
			} catch (error) {
				// No answer at all. The cause goes to the description: n8n replaces a message naming a
				// network code (ECONNREFUSED, …) with its generic words, which name no provider.
				throw new NodeOperationError(
					context.getNode(),
					`${recipient.provider} could not be reached`,
					{
						description: `${request.method} ${request.url.split('?')[0]}: ${(error as Error).message}. Check the host (the API Base URL option, if set) and this n8n's network.`,
						itemIndex,
					},
				);
			}
			const status = response.statusCode;
			if (status >= 200 && status < 300) return parsedBody(response.body);
			if (status !== 429) throw failure(context, itemIndex, recipient, request, response);
			if (waits >= MAX_RATE_LIMIT_WAITS) {
				throw new NodeApiError(context.getNode(), {} as JsonObject, {
					message: `${recipient.provider} answered 429 Too Many Requests ${MAX_RATE_LIMIT_WAITS + 1} times in a row`,
					description: `The node waited as Retry-After asked, ${MAX_RATE_LIMIT_WAITS} times. The key's rate limit is taken by other traffic: run this workflow less often or at a quieter hour, lower Max Events, or ask ${recipient.provider} for a higher limit. The next run continues from the Start After cursor it is given.`,
					httpCode: '429',
					itemIndex,
				});
			}
			await sleep(retryAfterSeconds(headerOf(response, 'retry-after'), Date.now()) * 1000);
		}
	};
}
