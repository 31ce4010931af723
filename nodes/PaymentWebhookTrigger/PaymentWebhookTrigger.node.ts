import {
	NodeOperationError,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IDataObject,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeParameters,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type NodeParameterValueType,
} from 'n8n-workflow';

import {
	assertSupportedN8n,
	MAIN_CONNECTION,
	webhookResolversKey,
} from '../shared/helpers/n8nCompatibility';
import { LABELS, properties } from './description';
import { DEFAULT_USER_ID_METADATA_KEY, eventTypeOf, paymentEventItem } from './events';
import {
	ANY_EVENT,
	ProviderUnavailableError,
	SECRET_FIELDS,
	type JsonObject,
	type PaymentProvider,
	type ProviderAnswer,
	type ProviderSecrets,
	type RefusalStatus,
	type ReplacedRoot,
	type RequestHeaders,
} from './provider';
import {
	DEFAULT_PROVIDER,
	isProvider,
	nameOf,
	PROVIDER_ALIASES,
	providerOf,
	PROVIDERS,
	type Provider,
} from './providers';
import { networkOf } from './network';
import CODEX_FILE from './PaymentWebhookTrigger.node.json';
import { RefusalLog } from './refusalLog';
import {
	DEFAULT_TOLERANCE_SECONDS,
	MAX_TOLERANCE_SECONDS,
	secretFit,
	verifyDelivery,
} from './signatures';

assertSupportedN8n();

export const SIGNING_CREDENTIAL_NAME = 'paymentWebhookSigningApi';

/** How the webhook answers an accepted delivery, as n8n's editor and older n8n evaluate it. */
const RESPONSE_MODE_TEMPLATE = '={{$parameter["responseMode"]}}';
/**
 * As n8n's Webhook node: the first item's JSON when the last node answers, nothing set otherwise
 * (a value here would be sent as the body of an immediate answer).
 */
const RESPONSE_DATA_TEMPLATE =
	'={{$parameter["responseMode"] === "lastNode" ? "firstEntryJson" : undefined}}';

/**
 * The same two fields as functions of the node's parameters. n8n 2.35 and later call them instead
 * of its expression engine when the parameters hold no expression, so that a delivery (a forged
 * one too) builds no expression isolate under `N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE`. Each resolver
 * returns what its template evaluates to (test/paymentWebhook/webhook.engine.test.ts compares them); older
 * n8n evaluates the templates.
 */
const RESPONSE_RESOLVERS = {
	responseMode: {
		template: RESPONSE_MODE_TEMPLATE,
		resolve: (parameters: INodeParameters): NodeParameterValueType => parameters.responseMode,
	},
	responseData: {
		template: RESPONSE_DATA_TEMPLATE,
		resolve: (parameters: INodeParameters): NodeParameterValueType =>
			parameters.responseMode === 'lastNode' ? 'firstEntryJson' : undefined,
	},
};
const resolversKey = webhookResolversKey();

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

interface Settings extends DeliverySettings {
	provider: Provider;
}

function parameterError(context: IWebhookFunctions, label: string, rule: string) {
	return new NodeOperationError(context.getNode(), `Parameter "${label}" ${rule}`, {
		description: 'Every delivery is refused until the parameter is fixed and the workflow saved.',
	});
}

function readSettings(context: IWebhookFunctions): Settings {
	const provider = String(context.getNodeParameter('provider', DEFAULT_PROVIDER));
	if (!isProvider(provider)) {
		throw parameterError(
			context,
			'Provider',
			`must be one of ${PROVIDERS.map(({ id }) => id).join(', ')} (got "${provider.slice(0, 40)}")`,
		);
	}
	const rawEvents = context.getNodeParameter('events', []);
	const events = (Array.isArray(rawEvents) ? rawEvents : [rawEvents])
		.map((event) => String(event).trim())
		.filter((event) => event !== '');
	if (events.length === 0) {
		throw parameterError(
			context,
			LABELS.events,
			`must select at least one event (or ${ANY_EVENT})`,
		);
	}
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const toleranceSeconds = Number(options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
	if (
		!Number.isInteger(toleranceSeconds) ||
		toleranceSeconds < 1 ||
		toleranceSeconds > MAX_TOLERANCE_SECONDS
	) {
		throw parameterError(
			context,
			LABELS.toleranceSeconds,
			`must be a whole number of seconds from 1 to ${MAX_TOLERANCE_SECONDS} (an hour): a wider window lets a captured delivery be replayed for longer`,
		);
	}
	const userIdMetadataKey = String(
		options.userIdMetadataKey ?? DEFAULT_USER_ID_METADATA_KEY,
	).trim();
	if (userIdMetadataKey === '') {
		throw parameterError(context, LABELS.userIdMetadataKey, 'must not be empty');
	}
	return { provider, events, toleranceSeconds, userIdMetadataKey };
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
function secretsOf(data: IDataObject | undefined): ProviderSecrets {
	const secrets = {} as ProviderSecrets;
	for (const field of SECRET_FIELDS) {
		const value = data?.[field];
		secrets[field] = typeof value === 'string' ? value : '';
	}
	return secrets;
}

/** A credential's fields as text (a field that is not text or a number is left out). */
function textFieldsOf(data: IDataObject | undefined): Record<string, string> {
	const fields: Record<string, string> = {};
	for (const [name, value] of Object.entries(data ?? {})) {
		if (typeof value === 'string' || typeof value === 'number') fields[name] = String(value);
	}
	return fields;
}

/** The provider's API credential's fields, for a provider that reads its API; else undefined. */
async function apiFieldsOf(
	context: IWebhookFunctions | IHookFunctions,
	provider: PaymentProvider,
): Promise<Record<string, string> | undefined> {
	if (provider.apiCredential === undefined) return undefined;
	return textFieldsOf(await context.getCredentials<IDataObject>(provider.apiCredential));
}

/** A provider's name after "a", or "an" when it starts with a vowel. */
function withArticle(name: string): string {
	return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

/** What the credential test and n8n's log say of a root that replaces the pinned one. */
function replacedRootText(root: ReplacedRoot): string {
	const { pinned, subject, fingerprint256, field = 'Root Certificate' } = root;
	const fingerprint = fingerprint256 === '' ? '' : ` (SHA-256 ${fingerprint256})`;
	return `its ${field} replaces ${pinned}, for tests only: deliveries signed under "${subject}"${fingerprint} are taken as genuine`;
}

/** The roots the credential's secrets set in place of pinned ones, one per provider using one. */
function replacedRoots(secrets: ProviderSecrets): ReplacedRoot[] {
	return PROVIDERS.flatMap((provider) => provider.replacedRoot?.(secrets) ?? []);
}

/**
 * At activation: one warning in n8n's log when the trigger's provider trusts a root the credential
 * sets in place of the one it pins. Never stops the activation (a credential it cannot read is
 * reported by the first delivery).
 */
async function warnOfReplacedRoot(context: IHookFunctions): Promise<void> {
	const id = String(context.getNodeParameter('provider', DEFAULT_PROVIDER));
	if (!isProvider(id)) return;
	const provider = providerOf(id);
	if (provider.replacedRoot === undefined) return;
	let secrets: ProviderSecrets;
	let api: Record<string, string> | undefined;
	try {
		secrets = secretsOf(await context.getCredentials<IDataObject>(SIGNING_CREDENTIAL_NAME));
		api = await apiFieldsOf(context, provider);
	} catch {
		return;
	}
	const replaced = provider.replacedRoot(secrets, api);
	if (replaced === null) return;
	const node = context.getNode();
	context.logger.warn(
		`Payment Webhook Trigger "${node.name}" (${provider.name}): ${replacedRootText(replaced)}. Each item it emits carries pinnedRootReplaced: true.`,
		{ workflowId: context.getWorkflow().id ?? '', node: node.name, provider: provider.id },
	);
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

export class PaymentWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Webhook Trigger',
		name: 'paymentWebhookTrigger',
		icon: {
			light: 'file:../../icons/affiliateTracking.svg',
			dark: 'file:../../icons/affiliateTracking.dark.svg',
		},
		group: ['trigger'],
		// Version 2 answers exactly as 1. n8n evaluates a version-1 start node's `binaryData` option
		// as an expression on every delivery (its webhook-helpers.js), which builds an isolate.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{ $parameter["provider"] }}',
		description:
			"Starts a workflow on a payment provider's signed webhook: checks the signature, gives one purchase or refund item",
		defaults: { name: 'Payment Webhook Trigger' },
		inputs: [],
		outputs: [MAIN_CONNECTION],
		credentials: [
			{ name: 'paymentWebhookSigningApi', required: true, testedBy: 'signingSecretFormat' },
			// The API credential of a provider that reads its API (its module's `apiCredential`),
			// shown for it only; written out, as n8n's lint reads which node tests a credential.
			{
				name: 'googlePlayApi',
				required: true,
				testedBy: 'providerApiCredential',
				displayOptions: { show: { provider: ['googlePlay'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: RESPONSE_MODE_TEMPLATE,
				responseData: RESPONSE_DATA_TEMPLATE,
				path: 'webhook',
				...(resolversKey === undefined ? {} : { [resolversKey]: RESPONSE_RESOLVERS }),
			},
		],
		properties,
		// n8n reads a community node's codex from here before its .node.json, which holds what is
		// not a provider's: each provider's search words come from its module.
		codex: {
			categories: CODEX_FILE.categories,
			resources: CODEX_FILE.resources,
			alias: [...PROVIDER_ALIASES, ...CODEX_FILE.alias],
		},
	};

	methods = {
		credentialTest: {
			/** No provider is contacted: the secret is only checked against each provider's form. */
			async signingSecretFormat(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const secrets = secretsOf(credential.data);
				const { fits, problems } = secretFit(secrets);
				// A root that replaces a pinned one is named whenever it is set, whatever fits.
				const roots = replacedRoots(secrets).map((root) => ` Note: ${replacedRootText(root)}.`);
				if (fits.length === 0) {
					return { status: 'Error', message: `${problems.join('; ')}${roots.join('')}` };
				}
				return {
					status: 'OK',
					message: `The credential is well formed for ${fits.join(', ')}.${roots.join('')} It is checked against each delivery's signature; no provider is contacted.`,
				};
			},
			/** A provider's API credential, checked offline too: the provider is not contacted. */
			async providerApiCredential(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const provider = PROVIDERS.find(({ apiCredential }) => apiCredential === credential.type);
				if (provider === undefined) {
					return { status: 'Error', message: `No provider reads ${credential.type}` };
				}
				const fields = textFieldsOf(credential.data);
				const problem = provider.apiCredentialProblem?.(fields) ?? null;
				if (problem !== null) return { status: 'Error', message: problem };
				const replaced = provider.replacedRoot?.(secretsOf(undefined), fields) ?? null;
				const note = replaced === null ? '' : ` Note: ${replacedRootText(replaced)}.`;
				return {
					status: 'OK',
					message: `The credential is well formed for ${provider.name}.${note} ${provider.name} is contacted at the first delivery.`,
				};
			},
		},
	};

	// Nothing is registered at the provider: the user pastes the URL into its webhook settings.
	webhookMethods = {
		default: {
			// n8n asks at each activation (create never runs: the answer is always yes).
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await warnOfReplacedRoot(this);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const settings = readSettings(this);
		return await answerDelivery(this, providerOf(settings.provider), settings);
	}
}

/**
 * Checks one delivery with `provider`'s module and answers it: refused (401 or 400, or the
 * module's own answer), ignored (200, starts nothing), or one item that starts the workflow.
 * Exported for the unit test of the provider interface, which hands it modules of its own.
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
