/**
 * The one place the Payment Webhook Trigger sends from: n8n's HTTP helper, for the providers whose
 * check or item needs the network (a certificate, published keys, an API's answer). Every answer
 * comes back as text with its status; only a request that gets no answer throws.
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import type { NetworkAnswer, NetworkRequest, ProviderNetwork } from './provider';

/** A provider that has not answered by then is taken as unavailable: the delivery gets 503. */
export const NETWORK_TIMEOUT_MS = 10_000;

/** The part of n8n's helpers this uses, on a webhook's or an activation's context. */
export interface HttpHelper {
	helpers: { httpRequest(options: IHttpRequestOptions): Promise<unknown> };
}

function textOf(body: unknown): string {
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (typeof body === 'string') return body;
	if (body === undefined || body === null) return '';
	return JSON.stringify(body);
}

function headersOf(headers: unknown): Record<string, string> {
	const lower: Record<string, string> = {};
	for (const [name, value] of Object.entries((headers ?? {}) as IDataObject)) {
		lower[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return lower;
}

/** The network a provider module is handed: each request through n8n's helper on `context`. */
export function networkOf(context: HttpHelper): ProviderNetwork {
	return async (request: NetworkRequest): Promise<NetworkAnswer> => {
		const form = request.form === undefined ? undefined : new URLSearchParams(request.form);
		const response = (await context.helpers.httpRequest({
			method: request.method,
			url: request.url,
			headers: {
				...request.headers,
				...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
			},
			...(form === undefined ? {} : { body: form.toString() }),
			encoding: 'arraybuffer',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: NETWORK_TIMEOUT_MS,
		})) as IN8nHttpFullResponse;
		return {
			status: response.statusCode,
			body: textOf(response.body),
			headers: headersOf(response.headers),
		};
	};
}
