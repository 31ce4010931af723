/**
 * A stand-in for n8n's IExecuteFunctions for source-level tests: node parameters per item, the
 * node's error setting, and a scripted `httpRequestWithAuthentication`. It implements only what
 * the package calls; anything else fails loudly.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	NodeExecutionHint,
} from 'n8n-workflow';

import { fakeNode } from './fakeNode';

export const TEST_CREDENTIALS: ICredentialDataDecryptedObject = {
	baseUrl: 'https://api.example.com',
	apiKey: 'pk_unit',
	apiSecret: 'sk_unit_secret_never_shown',
	signatureVersion: 'v2',
};

export type Responder = (
	options: IHttpRequestOptions,
	requestNumber: number,
) => Promise<IN8nHttpFullResponse> | IN8nHttpFullResponse;

export interface FakeContextOptions {
	/** The node's parameters for an item. */
	parameters: IDataObject | ((itemIndex: number) => IDataObject);
	items?: number;
	onError?: INode['onError'];
	respond?: Responder;
	credentials?: ICredentialDataDecryptedObject;
}

/** The value at a dotted path ("additionalFields.transactionId"). */
function valueAt(parameters: IDataObject, path: string): unknown {
	let value: unknown = parameters;
	for (const part of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[part];
	}
	return value;
}

/** The fake context, with every request the transport sent (in order) and every hint. */
export function fakeContext(options: FakeContextOptions) {
	const requests: IHttpRequestOptions[] = [];
	const hints: NodeExecutionHint[] = [];
	const parametersOf =
		typeof options.parameters === 'function'
			? options.parameters
			: () => options.parameters as IDataObject;
	const node = fakeNode(
		{
			id: 'unit-node',
			name: 'Affiliate Tracking',
			type: 'n8n-nodes-affiliate-tracking.affiliateTracking',
			onError: options.onError,
		},
		'affiliateTrackingApi',
	);
	const respond: Responder =
		options.respond ??
		(() => {
			throw new Error('this test sends no request');
		});
	const context = {
		getNode: () => node,
		getInputData: () => Array.from({ length: options.items ?? 1 }, () => ({ json: {} })),
		continueOnFail: () => options.onError !== undefined && options.onError !== 'stopWorkflow',
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			const value = valueAt(parametersOf(itemIndex), name);
			return value === undefined ? fallback : value;
		},
		getCredentials: async () => ({ ...(options.credentials ?? TEST_CREDENTIALS) }),
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
		helpers: {
			httpRequestWithAuthentication: async (
				_credentialType: string,
				requestOptions: IHttpRequestOptions,
			) => {
				requests.push(requestOptions);
				return await respond(requestOptions, requests.length);
			},
		},
	};
	return { context: context as unknown as IExecuteFunctions, requests, hints };
}

/** An HTTP 200 answer with an envelope. */
export function envelope(
	code: number,
	message: string,
	data: unknown = null,
	headers: IDataObject = {},
): IN8nHttpFullResponse {
	return { statusCode: 200, headers, body: { code, message, data } };
}

export function httpAnswer(
	statusCode: number,
	body: unknown = '',
	headers: IDataObject = {},
): IN8nHttpFullResponse {
	return { statusCode, headers, body: body as IN8nHttpFullResponse['body'] };
}

/** A failure of the connection itself, as the HTTP helper throws it. */
export function networkError(code: string, message: string): Error {
	return Object.assign(new Error(message), { code });
}
