/**
 * One delivery to the Payment Webhook Trigger, from its raw bytes to its answer: checked by the
 * provider's module (with what it fetched, and completed from the provider's API where it needs
 * to), then refused (401 or 400, or the module's own answer), answered 503 when the provider did
 * not answer, ignored (200, starts nothing), or one item that starts the workflow.
 */
import {
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { eventTypeOf, paymentEventItem } from './events';
import { networkOf } from './network';
import {
	ANY_EVENT,
	ProviderUnavailableError,
	SECRET_FIELDS,
	type JsonObject,
	type PaymentProvider,
	type ProviderAnswer,
	type ProviderSecrets,
	type RefusalStatus,
	type RequestHeaders,
} from './provider';
import { nameOf } from './providers';
import { RefusalLog } from './refusalLog';
import { verifyDelivery } from './signatures';

export const SIGNING_CREDENTIAL_NAME = 'paymentWebhookSigningApi';

/** The part of Express's response this node uses. */
interface Responder {
	set(name: string, value: string): unknown;
	status(code: number): {
		json(body: IDataObject): unknown;
		type(contentType: string): { send(body: string): unknown };
	};
}

/** The part of n8n's request this node uses: the body bytes as received. */
interface RawBodyRequest {
	headers: RequestHeaders;
	rawBody?: Buffer | null;
	readRawBody?: () => Promise<void>;
}

/** What the node's parameters say of every delivery, whichever the provider. */
export interface DeliverySettings {
	events: string[];
	toleranceSeconds: number;
	userIdMetadataKey: string;
}

/** The provider's own parameters, by name, as strings (empty when not set). */
function providerSettingsOf(
	context: IWebhookFunctions,
	provider: PaymentProvider,
): Record<string, string> {
	const settings: Record<string, string> = {};
	for (const parameter of provider.parameters ?? []) {
		const value = context.getNodeParameter(parameter.name, parameter.default) as unknown;
		settings[parameter.name] = value === undefined || value === null ? '' : String(value);
	}
	return settings;
}

/** The credential's fields a provider may use; a field not set (or not text) is empty. */
export function secretsOf(data: IDataObject | undefined): ProviderSecrets {
	const secrets = {} as ProviderSecrets;
	for (const field of SECRET_FIELDS) {
		const value = data?.[field];
		secrets[field] = typeof value === 'string' ? value : '';
	}
	return secrets;
}

/** A credential's fields as text (a field that is not text or a number is left out). */
export function textFieldsOf(data: IDataObject | undefined): Record<string, string> {
	const fields: Record<string, string> = {};
	for (const [name, value] of Object.entries(data ?? {})) {
		if (typeof value === 'string' || typeof value === 'number') fields[name] = String(value);
	}
	return fields;
}

/** The provider's API credential's fields, for a provider that reads its API; else undefined. */
export async function apiFieldsOf(
	context: IWebhookFunctions | IHookFunctions,
	provider: PaymentProvider,
): Promise<Record<string, string> | undefined> {
	if (provider.apiCredential === undefined) return undefined;
	return textFieldsOf(await context.getCredentials<IDataObject>(provider.apiCredential));
}

/** A provider's name after "a", or "an" when it starts with a vowel. */
export function withArticle(name: string): string {
	return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

/** The body bytes exactly as received: n8n keeps them on the request, or reads them on demand. */
async function rawBodyOf(request: RawBodyRequest): Promise<Buffer> {
	if (request.rawBody == null && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	return request.rawBody ?? Buffer.alloc(0);
}

function parseBody(rawBody: Buffer): IDataObject | null {
	const text = rawBody.toString('utf8').replace(/^\uFEFF/, '');
	try {
		const parsed: unknown = JSON.parse(text);
		return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
			? (parsed as IDataObject)
			: null;
	} catch {
		// Not JSON: refused below, like any body that is no JSON object.
		return null;
	}
}

/** The whole body of a refusal's answer: the sender learns nothing of why. */
const REFUSAL_BODIES: Record<RefusalStatus, IDataObject> = {
	401: { error: 'Invalid webhook signature' },
	400: { error: 'Invalid webhook body' },
};

/** Sends `answer` through the response object (n8n then sends nothing more). */
function send(context: IWebhookFunctions, answer: ProviderAnswer, headers = {}): void {
	const response: Responder = context.getResponseObject();
	const { status, body } = answer;
	for (const [name, value] of Object.entries<string>(headers)) response.set(name, value);
	// A text answer is read as it is (a literal `success`): plain text, not Express's HTML default.
	if (typeof body === 'string') response.status(status).type('text/plain').send(body);
	else response.status(status).json({ ...body });
}

/** The refusals this process has logged, per workflow; and the 503s for a provider's silence. */
const refusalLog = new RefusalLog();
const unavailableLog = new RefusalLog();

/**
 * One warning in n8n's log for an answer that started nothing, at most once a minute per workflow
 * and kind (refusalLog.ts): `what` says what was answered, given how many deliveries the line
 * stands for. The reason never holds a secret, the body or a header value.
 */
function warnOnce(
	context: IWebhookFunctions,
	log: RefusalLog,
	provider: PaymentProvider,
	status: number,
	what: (count: number) => string,
): void {
	const node = context.getNode();
	const workflowId = context.getWorkflow().id ?? '';
	const count = log.record(workflowId, Date.now());
	if (count === null) return;
	context.logger.warn(`Payment Webhook Trigger "${node.name}" ${what(count)}`, {
		workflowId,
		node: node.name,
		provider: provider.id,
		status,
		refusals: count,
	});
}

/**
 * Answers a delivery that is refused and starts nothing: the status and a generic body; the reason
 * goes only to n8n's log.
 */
function refuse(
	context: IWebhookFunctions,
	provider: PaymentProvider,
	status: RefusalStatus,
	reason: string,
): IWebhookResponseData {
	const name = nameOf(provider.id);
	warnOnce(context, refusalLog, provider, status, (count) => {
		const what =
			count === 1
				? `${withArticle(name)} delivery`
				: `${count} deliveries since its last such line, the last from ${name}`;
		return `refused ${what} (${status}): ${reason}`;
	});
	const refused = provider.answers?.refused;
	send(context, refused ? refused(status) : { status, body: REFUSAL_BODIES[status] });
	return { noWebhookResponse: true };
}

/** What a provider's retry waits for, at least, after a 503 of ours. */
const RETRY_AFTER_SECONDS = '30';

/**
 * Answers 503 (with Retry-After) a delivery whose check or item needs the provider's answer and
 * did not get it: the provider retries it, and nothing starts. The reason goes to n8n's log.
 */
function unavailable(
	context: IWebhookFunctions,
	provider: PaymentProvider,
	error: ProviderUnavailableError,
): IWebhookResponseData {
	warnOnce(context, unavailableLog, provider, 503, (count) => {
		const what = count === 1 ? 'a delivery' : `${count} deliveries since its last such line`;
		return `answered 503 to ${what}, for ${nameOf(provider.id)} to retry: ${error.message}`;
	});
	send(
		context,
		{ status: 503, body: { error: 'Temporarily unavailable: retry later' } },
		{ 'Retry-After': RETRY_AFTER_SECONDS },
	);
	return { noWebhookResponse: true };
}

/** Runs a step that needs the provider; its ProviderUnavailableError becomes the 503 answer. */
async function orUnavailable<T>(
	step: () => Promise<T>,
): Promise<{ value: T } | { error: ProviderUnavailableError }> {
	try {
		return { value: await step() };
	} catch (error) {
		if (error instanceof ProviderUnavailableError) return { error };
		// No answer at all (refused, timed out): the provider is unavailable too.
		return { error: new ProviderUnavailableError(`no answer: ${(error as Error).message}`) };
	}
}

/**
 * The answer to a verified delivery that starts nothing: the provider's accepted answer where it
 * reads one, else n8n's JSON.
 */
function ignore(
	context: IWebhookFunctions,
	provider: PaymentProvider,
	why: string,
): IWebhookResponseData {
	const accepted = provider.answers?.accepted;
	if (accepted === undefined) return { webhookResponse: { received: true, ignored: why } };
	send(context, accepted);
	return { noWebhookResponse: true };
}

/**
 * Checks one delivery with `provider`'s module and answers it: refused (401 or 400, or the
 * module's own answer), ignored (200, starts nothing), or one item that starts the workflow.
 * The node calls it with its provider's module; the unit tests hand it modules of their own.
 */
export async function answerDelivery(
	context: IWebhookFunctions,
	provider: PaymentProvider,
	settings: DeliverySettings,
): Promise<IWebhookResponseData> {
	const credentials = await context.getCredentials(SIGNING_CREDENTIAL_NAME);
	const request: RawBodyRequest = context.getRequestObject();
	const rawBody = await rawBodyOf(request);

	const secrets = secretsOf(credentials);
	const api = await apiFieldsOf(context, provider);
	const network = networkOf(context);
	const delivery = {
		rawBody,
		headers: request.headers,
		secrets,
		settings: providerSettingsOf(context, provider),
		toleranceSeconds: settings.toleranceSeconds,
		nowSeconds: Math.floor(Date.now() / 1000),
		...(api === undefined ? {} : { api }),
	};
	let fetched: Record<string, string> | undefined;
	const { fetchForCheck } = provider;
	if (fetchForCheck !== undefined && provider.secretProblem(secrets) === null) {
		const outcome = await orUnavailable(async () => await fetchForCheck(delivery, network));
		if ('error' in outcome) return unavailable(context, provider, outcome.error);
		fetched = outcome.value;
	}
	const verification = verifyDelivery({
		provider,
		...delivery,
		...(fetched === undefined ? {} : { fetched }),
	});
	if (!verification.valid && verification.unusableSecret) {
		// A setup error: every delivery would fail. An error execution shows it in the editor.
		throw new NodeOperationError(context.getNode(), verification.reason, {
			description: `Paste the endpoint's secrets, exactly as ${nameOf(provider.id)} shows them, into the Payment Webhook Signing API credential.`,
		});
	}
	if (!verification.valid) {
		return refuse(context, provider, verification.status ?? 401, verification.reason);
	}

	const verifiedBody = verification.body ?? parseBody(rawBody);
	if (verifiedBody === null) {
		return refuse(context, provider, 400, 'the signed body is not a JSON object');
	}
	let body: JsonObject = verifiedBody;
	// Only the verified body names the event: a body that names none starts nothing, whatever
	// is selected (an unsigned header such as X-Event-Name is never read).
	const eventType = eventTypeOf(provider, body as IDataObject);
	if (eventType === null) return ignore(context, provider, 'the event names no type');
	if (!settings.events.includes(ANY_EVENT) && !settings.events.includes(eventType)) {
		return ignore(context, provider, `${eventType} is not selected`);
	}
	const { complete } = provider;
	if (complete !== undefined) {
		const outcome = await orUnavailable(
			async () =>
				await complete(body, {
					network,
					api: api ?? {},
					settings: delivery.settings,
					nowSeconds: delivery.nowSeconds,
				}),
		);
		if ('error' in outcome) return unavailable(context, provider, outcome.error);
		body = outcome.value;
	}
	const item = paymentEventItem(provider, eventType, body as IDataObject, {
		signedAt: verification.signedAt,
		messageId: verification.messageId,
		userIdMetadataKey: settings.userIdMetadataKey,
	});
	// Verified under a root the credential set in place of the pinned one: not proven genuine.
	if ((provider.replacedRoot?.(secrets, api) ?? null) !== null) item.pinnedRootReplaced = true;
	const accepted = provider.answers?.accepted;
	if (accepted !== undefined && context.getNodeParameter('responseMode', '') === 'onReceived') {
		send(context, accepted);
		return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
	}
	return { workflowData: [[{ json: item }]] };
}
