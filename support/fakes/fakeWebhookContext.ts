/**
 * A stand-in for n8n's IWebhookFunctions for source-level tests of the Payment Webhook Trigger:
 * node parameters, the signing credential, a request with its raw body (kept on the request, or
 * read on demand as n8n's `readRawBody` does), an Express-like response that records what was
 * sent, and a logger that records every line. It implements only what the node calls. Also the
 * trigger's credential test, called as n8n calls it.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IHookFunctions,
	IHttpRequestOptions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import { fakeNode } from './fakeNode';

export interface FakeWebhookOptions {
	parameters: IDataObject;
	secret: string;
	/** The signing credential's other fields (public key, decryption secret, …); `secret` wins. */
	credential?: IDataObject;
	rawBody: string | Buffer;
	headers: Record<string, string | string[]>;
	/** As n8n before it parsed the body: the request has no rawBody until readRawBody() runs. */
	rawBodyOnDemand?: boolean;
	/** The workflow's ID; a new one for each fake when absent. */
	workflowId?: string;
	/** Another credential the node reads (a provider's API credential), by type. */
	otherCredentials?: Record<string, IDataObject>;
	/** n8n's HTTP helper, for providers that fetch (absent: any request fails as unreachable). */
	httpRequest?: (options: IHttpRequestOptions) => Promise<unknown>;
}

export interface LoggedLine {
	level: 'debug' | 'info' | 'warn' | 'error';
	message: string;
	meta?: unknown;
}

export interface FakeWebhook {
	context: IWebhookFunctions;
	/** What the node sent through the response object itself, JSON or text (n8n sends nothing more then). */
	sent: Array<{ status: number; body: unknown; contentType?: string }>;
	/** The headers the node set on its answer, by name. */
	headersSet: Record<string, string>;
	logged: LoggedLine[];
	readRawBodyCalls: () => number;
}

/** Each fake is a workflow of its own: refusals are logged per workflow, at most once a minute. */
let workflows = 0;

export function fakeWebhookContext(options: FakeWebhookOptions): FakeWebhook {
	const workflowId = options.workflowId ?? `unit-workflow-${++workflows}`;
	const sent: FakeWebhook['sent'] = [];
	const headersSet: Record<string, string> = {};
	const logged: LoggedLine[] = [];
	let readCalls = 0;
	const rawBody = Buffer.isBuffer(options.rawBody)
		? options.rawBody
		: Buffer.from(options.rawBody, 'utf8');
	const request: { headers: FakeWebhookOptions['headers']; rawBody?: Buffer } & IDataObject = {
		headers: options.headers,
		...(options.rawBodyOnDemand ? {} : { rawBody }),
		readRawBody: async () => {
			readCalls++;
			request.rawBody = rawBody;
		},
	};
	const node = fakeNode(
		{
			id: 'payment-trigger-node',
			name: 'Payment Webhook Trigger',
			type: 'n8n-nodes-affiliate-tracking.paymentWebhookTrigger',
			webhookId: 'unit-webhook-id',
		},
		'paymentWebhookSigningApi',
	);
	const log = (level: LoggedLine['level']) => (message: string, meta?: unknown) =>
		void logged.push({ level, message, meta });
	const context = {
		getNode: () => node,
		getWorkflow: () => ({ id: workflowId, name: 'Unit', active: true }),
		getMode: () => 'webhook',
		getNodeParameter: (name: string, fallback?: unknown) => {
			const value = options.parameters[name];
			return value === undefined ? fallback : value;
		},
		getCredentials: async (type: string) =>
			type === 'paymentWebhookSigningApi'
				? { ...options.credential, signingSecret: options.secret }
				: (options.otherCredentials?.[type] ?? Promise.reject(new Error(`no ${type} credential`))),
		helpers: {
			httpRequest:
				options.httpRequest ??
				(async ({ url }: IHttpRequestOptions) => {
					throw new Error(`connect ECONNREFUSED (${String(url)})`);
				}),
		},
		getRequestObject: () => request,
		getResponseObject: () => ({
			set: (name: string, value: string) => void (headersSet[name] = value),
			status: (status: number) => {
				const send = (contentType?: string) => (body: unknown) =>
					void sent.push({ status, body, ...(contentType && { contentType }) });
				return {
					json: send(),
					send: send(),
					type: (contentType: string) => ({ send: send(contentType) }),
				};
			},
		}),
		getHeaderData: () => options.headers,
		logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
	};
	const readRawBodyCalls = () => readCalls;
	return {
		context: context as unknown as IWebhookFunctions,
		sent,
		headersSet,
		logged,
		readRawBodyCalls,
	};
}

/** The trigger's credential test on a signing credential holding `signingSecret`, as n8n calls it. */
export async function testSigningSecret(signingSecret: unknown) {
	return await new PaymentWebhookTrigger().methods.credentialTest.signingSecretFormat.call(
		{} as ICredentialTestFunctions,
		{
			id: 'c',
			name: 'c',
			type: 'paymentWebhookSigningApi',
			data: { signingSecret },
		} as ICredentialsDecrypted,
	);
}

/**
 * n8n's activation of a Payment Webhook Trigger for `provider`, named `nodeName`, whose credentials
 * (by type) hold `credentials`: what it logged. The activation itself must say yes.
 */
export async function activateTrigger(
	provider: string,
	nodeName: string,
	credentials: Record<string, IDataObject>,
): Promise<LoggedLine[]> {
	const logged: LoggedLine[] = [];
	const hook = {
		getNode: () => ({ name: nodeName }),
		getWorkflow: () => ({ id: `wf-${provider}` }),
		getNodeParameter: (name: string, fallback: unknown) =>
			name === 'provider' ? provider : fallback,
		getCredentials: async (type: string) => credentials[type] ?? {},
		logger: {
			warn: (message: string, meta?: unknown) => void logged.push({ level: 'warn', message, meta }),
		},
	} as unknown as IHookFunctions;
	const activated = await new PaymentWebhookTrigger().webhookMethods.default.checkExists.call(hook);
	if (!activated) throw new Error('the activation said no');
	return logged;
}
