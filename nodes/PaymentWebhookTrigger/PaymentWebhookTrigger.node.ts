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
import { DEFAULT_USER_ID_METADATA_KEY } from './events';
import {
	answerDelivery,
	apiFieldsOf,
	secretsOf,
	SIGNING_CREDENTIAL_NAME,
	textFieldsOf,
	type DeliverySettings,
} from './delivery';
import { ANY_EVENT, type ProviderSecrets, type ReplacedRoot } from './provider';
import {
	DEFAULT_PROVIDER,
	isProvider,
	PROVIDER_ALIASES,
	providerOf,
	PROVIDERS,
	type Provider,
} from './providers';
import CODEX_FILE from './PaymentWebhookTrigger.node.json';
import { DEFAULT_TOLERANCE_SECONDS, MAX_TOLERANCE_SECONDS, secretFit } from './signatures';

assertSupportedN8n();

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
