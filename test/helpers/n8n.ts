/**
 * Runs workflows through n8n-core's real engine (WorkflowExecute) with this package loaded
 * from its built `dist/` by n8n's own PackageDirectoryLoader, as n8n loads a community package.
 */
import {
	ExecutionLifecycleHooks,
	PackageDirectoryLoader,
	PollContext,
	WorkflowExecute,
} from 'n8n-core';
import {
	createRunExecutionData,
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { workflowFixtures, type WorkflowFixtureName } from '../fixtures/workflows';

/** The package root, set by jest.config.js. */
declare const PACKAGE_DIR: string;
export const PACKAGE_NAME = 'n8n-nodes-affiliate-tracking';
export const NODE_TYPE = `${PACKAGE_NAME}.affiliateTracking`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.affiliateTrackingTrigger`;
export const CREDENTIAL_TYPE = 'affiliateTrackingApi';

let loading: Promise<PackageDirectoryLoader> | undefined;

/** The built package as n8n loads it (once per test file). */
export async function loadPackage(): Promise<PackageDirectoryLoader> {
	loading ??= (async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_DIR);
		await loader.loadAll();
		return loader;
	})();
	return await loading;
}

class PackageNodeTypes implements INodeTypes {
	constructor(
		private readonly loader: PackageDirectoryLoader,
		private readonly otherTypes: Record<string, INodeType | IVersionedNodeType> = {},
	) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const other = this.otherTypes[nodeType];
		if (other) return other;
		const shortName = nodeType.startsWith(`${PACKAGE_NAME}.`)
			? nodeType.slice(PACKAGE_NAME.length + 1)
			: nodeType;
		const entry = this.loader.nodeTypes[shortName];
		if (!entry) throw new Error(`Unknown node type ${nodeType}`);
		return entry.type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** Hands the engine test credentials by credential id, signing through the credential type's own authenticate(). */
class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly loader: PackageDirectoryLoader,
		private readonly credentials: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	private credentialType(typeName: string): ICredentialType {
		const entry = this.loader.credentialTypes[typeName];
		if (!entry) throw new Error(`Unknown credential type ${typeName}`);
		return entry.type;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.credentialType(typeName);
		if (typeof authenticate !== 'function')
			throw new Error(`${typeName} has no authenticate function`);
		return await authenticate(credentials, requestOptions);
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by these tests');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.credentials[nodeCredentials.id ?? ''];
		if (!data) throw new Error(`No test credential with id ${nodeCredentials.id}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(typeName: string): INodeProperties[] {
		return this.credentialType(typeName).properties;
	}
}

export interface RunOptions {
	/** Test credentials by the credential id the workflow's nodes name. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Items fed to the first node. */
	input?: INodeExecutionData[];
	/** Node types from other packages (for example n8n's HTTP Request node), by full type name. */
	otherNodeTypes?: Record<string, INodeType | IVersionedNodeType>;
}

export interface WorkflowRun {
	run: IRun;
	/** Output items of a node's first run, per output (0 = main, 1 = error output). */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** The error that stopped the run, if any. */
	error: IRun['data']['resultData']['error'];
}

function additionalData(
	credentialsHelper: ICredentialsHelper,
	hooks: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const base = 'http://127.0.0.1:5678/';
	const data: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper,
		hooks,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}rest`,
		instanceBaseUrl: base,
		formBaseUrl: `${base}form`,
		formWaitingBaseUrl: `${base}form-waiting`,
		formTestBaseUrl: `${base}form-test`,
		webhookBaseUrl: `${base}webhook`,
		webhookWaitingBaseUrl: `${base}webhook-waiting`,
		webhookTestBaseUrl: `${base}webhook-test`,
		mcpBaseUrl: `${base}mcp`,
		mcpTestBaseUrl: `${base}mcp-test`,
		variables: {},
		logAiEvent: () => {},
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used by these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('task runners are not used by these tests');
		},
	};
	return data as IWorkflowExecuteAdditionalData;
}

/** Runs a workflow from its first node (the one without incoming connections). */
export async function runWorkflow(
	workflowData: IWorkflowBase,
	options: RunOptions,
): Promise<WorkflowRun> {
	const loader = await loadPackage();
	const nodeTypes = new PackageNodeTypes(loader, options.otherNodeTypes);
	const workflow = new Workflow({
		id: workflowData.id ?? 'test',
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		nodeTypes,
		settings: workflowData.settings,
		active: false,
	});
	const targets = new Set(
		Object.values(workflowData.connections).flatMap((byType) =>
			Object.values(byType).flatMap((outputs) =>
				outputs.flatMap((links) => (links ?? []).map((link) => link.node)),
			),
		),
	);
	const startNode = workflowData.nodes.find((node) => !targets.has(node.name)) as INode;

	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', workflowData);
	let resolveRun: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => {
		resolveRun = resolve;
	});
	hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));

	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: [options.input ?? [{ json: {} }]] }, source: null },
			],
		},
	});

	const engine = new WorkflowExecute(
		additionalData(new TestCredentialsHelper(loader, options.credentials), hooks),
		'manual',
		runExecutionData,
	);
	await engine.processRunExecutionData(workflow);
	const run = await finished;
	assertNoSecrets(run, Object.values(options.credentials));
	return {
		run,
		error: run.data.resultData.error,
		output(nodeName, outputIndex = 0) {
			const taskData = run.data.resultData.runData[nodeName]?.[0];
			if (!taskData) throw new Error(`Node "${nodeName}" did not run`);
			return taskData.data?.main?.[outputIndex] ?? [];
		},
	};
}

/** A fresh copy of a workflow fixture (tests may change it). */
export function readWorkflowFixture(name: WorkflowFixtureName): IWorkflowBase {
	// The JSON holds what a user's export holds; the engine needs no more than that.
	return structuredClone(workflowFixtures[name]) as unknown as IWorkflowBase;
}

/** A workflow of one node, as the engine needs it. */
export function oneNodeWorkflow(node: INode): IWorkflowBase {
	return {
		id: node.id,
		name: node.name,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		connections: {},
		nodes: [node],
	};
}

/** The test credential a node uses unless a test names another. */
const DEFAULT_CREDENTIAL_ID = 'videomax-v2';

/** One of this package's nodes with its parameters and a test credential. */
function packageNode(
	type: string,
	name: string,
	parameters: INode['parameters'],
	credentialId = DEFAULT_CREDENTIAL_ID,
): INode {
	return {
		id: `${name.toLowerCase().replace(/\W+/g, '-')}-node`,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: credentialId } },
	};
}

/** A one-node workflow around the Affiliate Tracking node, for the parameter-driven tests. */
export function singleNodeWorkflow(
	parameters: INode['parameters'],
	settings: Partial<Pick<INode, 'continueOnFail' | 'onError'>> & { credentialId?: string } = {},
): IWorkflowBase {
	const { credentialId, ...nodeSettings } = settings;
	return oneNodeWorkflow({
		...packageNode(NODE_TYPE, 'Affiliate Tracking', parameters, credentialId),
		...nodeSettings,
	});
}

/** Every serialized run is scanned: an API secret in output, errors or metadata fails the test. */
export function assertNoSecrets(run: unknown, credentials: ICredentialDataDecryptedObject[]): void {
	const serialized = JSON.stringify(run, (_key, value: unknown) =>
		value instanceof Error
			? {
					...value,
					message: value.message,
					stack: value.stack,
					description: (value as { description?: unknown }).description,
				}
			: value,
	);
	for (const { apiSecret } of credentials) {
		if (typeof apiSecret === 'string' && apiSecret.length >= 8 && serialized.includes(apiSecret)) {
			throw new Error(
				`An API secret appears in the serialized run data (${apiSecret.slice(0, 8)}…)`,
			);
		}
	}
}

/** The same workflow with every node's credential set to another test credential. */
export function withCredential(workflowData: IWorkflowBase, credentialId: string): IWorkflowBase {
	return {
		...workflowData,
		nodes: workflowData.nodes.map((node) => ({
			...node,
			credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: credentialId } },
		})),
	};
}

export interface PollOptions {
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** `trigger` for an active workflow's poll, `manual` for the editor's Fetch Test Event. */
	mode: 'trigger' | 'manual';
	/** The workflow's static data as n8n stored it after the previous poll (JSON). */
	staticData?: IDataObject;
	/** The test credential the trigger uses (default videomax-v2). */
	credentialId?: string;
	/** Poll as n8n before 2.38 does: its poll context has no `getPollBudgetMs`. */
	withoutPollBudget?: boolean;
}

export interface PollResult {
	/** What the poll returned: the items it emits, or null for "nothing new". */
	items: INodeExecutionData[] | null;
	/** Errors the poll reported to n8n (saved as failed executions) while it went on. */
	reportedErrors: Error[];
	/** The static data after the poll, as n8n would store it (JSON round trip). */
	staticData: IDataObject;
	/** What the poll threw, if it stopped. */
	thrown?: Error;
}

/**
 * One poll of the trigger through n8n-core's own PollContext, as n8n runs it for an active
 * workflow (mode `trigger`) or for Fetch Test Event (mode `manual`). Each poll builds the workflow
 * anew from the stored static data, as after a restart.
 */
export async function pollTrigger(
	parameters: INode['parameters'],
	options: PollOptions,
): Promise<PollResult> {
	const loader = await loadPackage();
	const node = packageNode(
		TRIGGER_TYPE,
		'Affiliate Tracking Trigger',
		parameters,
		options.credentialId,
	);
	const workflowData = oneNodeWorkflow(node);
	const nodeTypes = new PackageNodeTypes(loader);
	const workflow = new Workflow({
		id: 'trigger-workflow',
		nodes: [node],
		connections: {},
		nodeTypes,
		active: options.mode === 'trigger',
		staticData: structuredClone(options.staticData ?? {}),
	});
	const reportedErrors: Error[] = [];
	const context = new PollContext(
		workflow,
		node,
		additionalData(
			new TestCredentialsHelper(loader, options.credentials),
			new ExecutionLifecycleHooks('trigger', 'poll-execution', workflowData),
		),
		options.mode,
		'activate',
		() => {
			throw new Error('the trigger returns its items; it does not emit them itself');
		},
		(error) => reportedErrors.push(error),
	);
	if (options.withoutPollBudget) Reflect.deleteProperty(context, 'getPollBudgetMs');
	const nodeType = nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 1);
	let items: INodeExecutionData[] | null = null;
	let thrown: Error | undefined;
	try {
		const result = await nodeType.poll?.call(context);
		items = result?.[0] ?? null;
	} catch (error) {
		thrown = error as Error;
	}
	const staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
	const result = { items, reportedErrors, staticData, thrown };
	assertNoSecrets(result, Object.values(options.credentials));
	return result;
}
