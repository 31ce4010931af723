// @ts-check
'use strict';
/**
 * Runs workflows through n8n-core's real engine (WorkflowExecute) with this package loaded
 * from its built `dist/` by n8n's own PackageDirectoryLoader, as n8n loads a community package.
 * Plain JavaScript, so that the engine tests and the benchmarks both load it without a compile
 * step. n8n-core needs `reflect-metadata` loaded first (jest's setupFiles, the benchmarks' first
 * line).
 */
/**
 * @import {
 *   DeduplicationItemTypes,
 *   DeduplicationScope,
 *   ICheckProcessedContextData,
 *   ICheckProcessedOptions,
 *   IDataDeduplicator,
 *   IDeduplicationOutput,
 *   ICredentialDataDecryptedObject,
 *   ICredentials,
 *   ICredentialType,
 *   IDataObject,
 *   IHttpRequestOptions,
 *   INode,
 *   INodeCredentialsDetails,
 *   INodeExecutionData,
 *   INodeProperties,
 *   INodeType,
 *   INodeTypes,
 *   IRun,
 *   IVersionedNodeType,
 *   IWorkflowBase,
 *   IWorkflowExecuteAdditionalData,
 * } from 'n8n-workflow'
 * @import { WorkflowFixtureName } from '../test/fixtures/workflows'
 */
const { createHash } = require('node:crypto');
const path = require('node:path');
const {
	DataDeduplicationService,
	ExecutionLifecycleHooks,
	PackageDirectoryLoader,
	PollContext,
	WorkflowExecute,
} = require('n8n-core');
const {
	createRunExecutionData,
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
} = require('n8n-workflow');
const { workflowFixtures } = require('../test/fixtures/workflows');

/** The package root: this file's parent folder, whoever loads it. */
const PACKAGE_DIR = path.resolve(__dirname, '..');
const PACKAGE_NAME = 'n8n-nodes-affiliate-tracking';
const NODE_TYPE = `${PACKAGE_NAME}.affiliateTracking`;
const TRIGGER_TYPE = `${PACKAGE_NAME}.affiliateTrackingTrigger`;
const CREDENTIAL_TYPE = 'affiliateTrackingApi';

/** @type {Promise<PackageDirectoryLoader> | undefined} */
let loading;

/**
 * The built package as n8n loads it (once per test file).
 * @returns {Promise<PackageDirectoryLoader>}
 */
async function loadPackage() {
	loading ??= (async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_DIR);
		await loader.loadAll();
		return loader;
	})();
	return await loading;
}

/** @implements {INodeTypes} */
class PackageNodeTypes {
	/**
	 * @param {PackageDirectoryLoader} loader
	 * @param {Record<string, INodeType | IVersionedNodeType>} [otherTypes]
	 */
	constructor(loader, otherTypes = {}) {
		/** @private @readonly */
		this.loader = loader;
		/** @private @readonly */
		this.otherTypes = otherTypes;
	}

	/**
	 * @param {string} nodeType
	 * @returns {INodeType | IVersionedNodeType}
	 */
	getByName(nodeType) {
		const other = this.otherTypes[nodeType];
		if (other) return other;
		const shortName = nodeType.startsWith(`${PACKAGE_NAME}.`)
			? nodeType.slice(PACKAGE_NAME.length + 1)
			: nodeType;
		const entry = this.loader.nodeTypes[shortName];
		if (!entry) throw new Error(`Unknown node type ${nodeType}`);
		return entry.type;
	}

	/**
	 * @param {string} nodeType
	 * @param {number} [version]
	 * @returns {INodeType}
	 */
	getByNameAndVersion(nodeType, version) {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	/** @returns {IDataObject} */
	getKnownTypes() {
		return {};
	}
}

/** Hands the engine test credentials by credential id, signing through the credential type's own authenticate(). */
class TestCredentialsHelper extends ICredentialsHelper {
	/**
	 * @param {PackageDirectoryLoader} loader
	 * @param {Record<string, ICredentialDataDecryptedObject>} credentials
	 */
	constructor(loader, credentials) {
		super();
		/** @private @readonly */
		this.loader = loader;
		/** @private @readonly */
		this.credentials = credentials;
	}

	/**
	 * @private
	 * @param {string} typeName
	 * @returns {ICredentialType}
	 */
	credentialType(typeName) {
		const entry = this.loader.credentialTypes[typeName];
		if (!entry) throw new Error(`Unknown credential type ${typeName}`);
		return entry.type;
	}

	/** @returns {string[]} */
	getParentTypes() {
		return [];
	}

	/** @returns {boolean} */
	isCredentialUsableByNode() {
		return true;
	}

	/**
	 * @param {ICredentialDataDecryptedObject} credentials
	 * @param {string} typeName
	 * @param {IHttpRequestOptions} requestOptions
	 * @returns {Promise<IHttpRequestOptions>}
	 */
	async authenticate(credentials, typeName, requestOptions) {
		const { authenticate } = this.credentialType(typeName);
		if (typeof authenticate !== 'function')
			throw new Error(`${typeName} has no authenticate function`);
		return await authenticate(credentials, requestOptions);
	}

	/** @returns {Promise<undefined>} */
	async preAuthentication() {
		return undefined;
	}

	/** @returns {Promise<undefined>} */
	async runPreAuthentication() {
		return undefined;
	}

	/** @returns {Promise<ICredentials>} */
	async getCredentials() {
		throw new Error('not used by these tests');
	}

	/**
	 * @param {IWorkflowExecuteAdditionalData} _additionalData
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @returns {Promise<ICredentialDataDecryptedObject>}
	 */
	async getDecrypted(_additionalData, nodeCredentials) {
		const data = this.credentials[nodeCredentials.id ?? ''];
		if (!data) throw new Error(`No test credential with id ${nodeCredentials.id}`);
		return { ...data };
	}

	/** @returns {Promise<void>} */
	async updateCredentials() {}

	/** @returns {Promise<void>} */
	async updateCredentialsOauthTokenData() {}

	/**
	 * @param {string} typeName
	 * @returns {INodeProperties[]}
	 */
	getCredentialsProperties(typeName) {
		return this.credentialType(typeName).properties;
	}
}

/**
 * @typedef {object} StoredRow
 * @property {ICheckProcessedOptions['mode']} mode
 * @property {string[]} data
 */

/**
 * THE HARNESS'S DEDUPLICATION STORE, an in-memory stand-in for n8n's own (the Remove Duplicates
 * node's, `n8n/dist/deduplication/deduplication-helper.js`, a table in n8n's database), which
 * n8n-core's engine reaches through `DataDeduplicationService`. It keeps n8n's semantics for mode
 * `entries`: one row per workflow and scope (`''` for the workflow, `n:<node id>` for a node);
 * every call reads the row, changes it and writes it back, with a pause between the read and the
 * write (a database round trip) and no lock, so that concurrent calls can drop each other's
 * entries as in n8n; the first write inserts the row and fails when another call inserted it in
 * between (the row's primary key); values are kept as n8n keeps them, the MD5 (base64) of their
 * text; `maxEntries` drops the oldest. The real store, in PostgreSQL, is proven by the queue-mode
 * test (`e2e/testQueue.js`). Tests can make the next calls fail or the next writes get lost.
 * @implements {IDataDeduplicator}
 */
class HarnessDeduplicationStore {
	constructor() {
		/** @type {Map<string, StoredRow>} */
		this.rows = new Map();
		/** Every call, in order. @type {Array<{ call: string, items: DeduplicationItemTypes[] }>} */
		this.calls = [];
		/** @private */
		this.failingCalls = 0;
		/** @private */
		this.lostWrites = 0;
	}

	/** Forgets every row, call and planned fault. */
	reset() {
		this.rows.clear();
		this.calls = [];
		this.failingCalls = 0;
		this.lostWrites = 0;
	}

	/**
	 * The next `count` calls fail before reading, as n8n's fails when two processes insert a
	 * workflow's first row at once.
	 * @param {number} count
	 */
	failNextCalls(count) {
		this.failingCalls = count;
	}

	/**
	 * The next `count` writes are lost, as when another process wrote the row it had read before.
	 * @param {number} count
	 */
	loseNextWrites(count) {
		this.lostWrites = count;
	}

	/**
	 * Whether a workflow's row holds a value (scope `workflow`).
	 * @param {string} workflowId
	 * @param {DeduplicationItemTypes} value
	 * @returns {boolean}
	 */
	has(workflowId, value) {
		const row = this.rows.get(
			HarnessDeduplicationStore.rowKey('workflow', { workflow: { id: workflowId, active: false } }),
		);
		return row?.data.includes(HarnessDeduplicationStore.hash(value)) ?? false;
	}

	/**
	 * @param {DeduplicationScope} scope
	 * @param {ICheckProcessedContextData} contextData
	 * @returns {string}
	 */
	static rowKey(scope, contextData) {
		if (!contextData.workflow.id) throw new Error('The harness store needs a workflow id');
		const context = scope === 'node' ? `n:${contextData.node?.id}` : '';
		return `${contextData.workflow.id}\u0000${context}`;
	}

	/**
	 * @param {DeduplicationItemTypes} value
	 * @returns {string}
	 */
	static hash(value) {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	/**
	 * @private
	 * @param {string} call
	 * @param {DeduplicationItemTypes[]} items
	 * @param {ICheckProcessedOptions} options
	 */
	start(call, items, options) {
		this.calls.push({ call, items: [...items] });
		if (options.mode !== 'entries') throw new Error('The harness store keeps mode "entries" only');
		if (this.failingCalls > 0) {
			this.failingCalls--;
			throw new Error(
				'duplicate key value violates unique constraint "PK_processed_data" (harness store)',
			);
		}
	}

	/**
	 * @private
	 * @param {string} key
	 * @returns {Promise<StoredRow | undefined>}
	 */
	async read(key) {
		await new Promise((resolve) => setImmediate(resolve));
		const row = this.rows.get(key);
		return row === undefined ? undefined : structuredClone(row);
	}

	/**
	 * @private
	 * @param {string} key
	 * @param {StoredRow} row
	 * @param {boolean} insert
	 */
	async write(key, row, insert) {
		await new Promise((resolve) => setImmediate(resolve));
		if (this.lostWrites > 0) {
			this.lostWrites--;
			return;
		}
		if (insert && this.rows.has(key)) {
			throw new Error(
				'duplicate key value violates unique constraint "PK_processed_data" (harness store)',
			);
		}
		this.rows.set(key, structuredClone(row));
	}

	/**
	 * @param {DeduplicationItemTypes[]} items
	 * @param {DeduplicationScope} scope
	 * @param {ICheckProcessedContextData} contextData
	 * @param {ICheckProcessedOptions} options
	 * @returns {Promise<IDeduplicationOutput>}
	 */
	async checkProcessedAndRecord(items, scope, contextData, options) {
		this.start('checkProcessedAndRecord', items, options);
		const key = HarnessDeduplicationStore.rowKey(scope, contextData);
		const hashes = items.map(HarnessDeduplicationStore.hash);
		const row = await this.read(key);
		if (row === undefined) {
			const data = options.maxEntries ? hashes.slice(-options.maxEntries) : hashes;
			await this.write(key, { mode: options.mode, data }, true);
			return { new: [...items], processed: [] };
		}
		if (row.mode !== options.mode)
			throw new Error('Deduplication data was originally saved with an incompatible setting');
		/** @type {IDeduplicationOutput} */
		const output = { new: [], processed: [] };
		const known = new Set(row.data);
		hashes.forEach((hash, index) => {
			if (known.has(hash)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				row.data.push(hash);
			}
		});
		if (options.maxEntries) row.data.splice(0, row.data.length - options.maxEntries);
		await this.write(key, row, false);
		return output;
	}

	/**
	 * @param {DeduplicationItemTypes[]} items
	 * @param {DeduplicationScope} scope
	 * @param {ICheckProcessedContextData} contextData
	 * @param {ICheckProcessedOptions} options
	 * @returns {Promise<void>}
	 */
	async removeProcessed(items, scope, contextData, options) {
		this.start('removeProcessed', items, options);
		const key = HarnessDeduplicationStore.rowKey(scope, contextData);
		const row = await this.read(key);
		if (row === undefined) return;
		for (const hash of items.map(HarnessDeduplicationStore.hash)) {
			const index = row.data.indexOf(hash);
			if (index !== -1) row.data.splice(index, 1);
		}
		await this.write(key, row, false);
	}

	/**
	 * @param {DeduplicationScope} scope
	 * @param {ICheckProcessedContextData} contextData
	 * @returns {Promise<void>}
	 */
	async clearAllProcessedItems(scope, contextData) {
		this.rows.delete(HarnessDeduplicationStore.rowKey(scope, contextData));
	}

	/**
	 * @param {DeduplicationScope} scope
	 * @param {ICheckProcessedContextData} contextData
	 * @returns {Promise<number>}
	 */
	async getProcessedDataCount(scope, contextData) {
		return this.rows.get(HarnessDeduplicationStore.rowKey(scope, contextData))?.data.length ?? 0;
	}
}

/** The harness's store, shared by every run of a test file (reset it in `beforeEach`). */
const deduplicationStore = new HarnessDeduplicationStore();

/** Hands n8n-core the harness's store, once per process (n8n-core allows one). */
async function useHarnessDeduplicationStore() {
	try {
		DataDeduplicationService.getInstance();
	} catch {
		await DataDeduplicationService.init(deduplicationStore);
	}
}

/**
 * @typedef {object} RunOptions
 * @property {Record<string, ICredentialDataDecryptedObject>} credentials Test credentials by the
 *   credential id the workflow's nodes name.
 * @property {INodeExecutionData[]} [input] Items fed to the first node.
 * @property {Record<string, INodeType | IVersionedNodeType>} [otherNodeTypes] Node types from
 *   other packages (for example n8n's HTTP Request node), by full type name.
 */

/**
 * @typedef {object} WorkflowRun
 * @property {IRun} run
 * @property {(nodeName: string, outputIndex?: number) => INodeExecutionData[]} output Output items
 *   of a node's first run, per output (0 = main, 1 = error output).
 * @property {IRun['data']['resultData']['error']} error The error that stopped the run, if any.
 */

/**
 * @param {ICredentialsHelper} credentialsHelper
 * @param {ExecutionLifecycleHooks} hooks
 * @returns {IWorkflowExecuteAdditionalData}
 */
function additionalData(credentialsHelper, hooks) {
	const base = 'http://127.0.0.1:5678/';
	/** @type {Partial<IWorkflowExecuteAdditionalData>} */
	const data = {
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
	return /** @type {IWorkflowExecuteAdditionalData} */ (data);
}

/**
 * Runs a workflow from its first node (the one without incoming connections).
 * @param {IWorkflowBase} workflowData
 * @param {RunOptions} options
 * @returns {Promise<WorkflowRun>}
 */
async function runWorkflow(workflowData, options) {
	const loader = await loadPackage();
	await useHarnessDeduplicationStore();
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
	const startNode = /** @type {INode} */ (
		workflowData.nodes.find((node) => !targets.has(node.name))
	);

	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', workflowData);
	/** @type {(run: IRun) => void} */
	let resolveRun = () => {};
	/** @type {Promise<IRun>} */
	const finished = new Promise((resolve) => {
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

/**
 * A fresh copy of a workflow fixture (tests may change it).
 * @param {WorkflowFixtureName} name
 * @returns {IWorkflowBase}
 */
function readWorkflowFixture(name) {
	// The JSON holds what a user's export holds; the engine needs no more than that.
	return /** @type {IWorkflowBase} */ (
		/** @type {unknown} */ (structuredClone(workflowFixtures[name]))
	);
}

/**
 * A workflow of one node, as the engine needs it.
 * @param {INode} node
 * @returns {IWorkflowBase}
 */
function oneNodeWorkflow(node) {
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

/**
 * One of this package's nodes with its parameters and a test credential.
 * @param {string} type
 * @param {string} name
 * @param {INode['parameters']} parameters
 * @returns {INode}
 */
function packageNode(type, name, parameters, credentialId = DEFAULT_CREDENTIAL_ID) {
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

/**
 * A one-node workflow around the Affiliate Tracking node, for the parameter-driven tests.
 * @param {INode['parameters']} parameters
 * @param {Partial<Pick<INode, 'continueOnFail' | 'onError'>> & { credentialId?: string }} [settings]
 * @returns {IWorkflowBase}
 */
function singleNodeWorkflow(parameters, settings = {}) {
	const { credentialId, ...nodeSettings } = settings;
	return oneNodeWorkflow({
		...packageNode(NODE_TYPE, 'Affiliate Tracking', parameters, credentialId),
		...nodeSettings,
	});
}

/**
 * Every serialized run is scanned: an API secret in output, errors or metadata fails the test.
 * @param {unknown} run
 * @param {ICredentialDataDecryptedObject[]} credentials
 * @returns {void}
 */
function assertNoSecrets(run, credentials) {
	const serialized = JSON.stringify(run, (_key, /** @type {unknown} */ value) =>
		value instanceof Error
			? {
					...value,
					message: value.message,
					stack: value.stack,
					description: /** @type {{ description?: unknown }} */ (value).description,
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

/**
 * The same workflow with every node's credential set to another test credential.
 * @param {IWorkflowBase} workflowData
 * @param {string} credentialId
 * @returns {IWorkflowBase}
 */
function withCredential(workflowData, credentialId) {
	return {
		...workflowData,
		nodes: workflowData.nodes.map((node) => ({
			...node,
			credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: credentialId } },
		})),
	};
}

/**
 * @typedef {object} PollOptions
 * @property {Record<string, ICredentialDataDecryptedObject>} credentials
 * @property {'trigger' | 'manual'} mode `trigger` for an active workflow's poll, `manual` for the
 *   editor's Fetch Test Event.
 * @property {IDataObject} [staticData] The workflow's static data as n8n stored it after the
 *   previous poll (JSON).
 * @property {string} [credentialId] The test credential the trigger uses (default videomax-v2).
 * @property {boolean} [withoutPollBudget] Poll as n8n before 2.38 does: its poll context has no
 *   `getPollBudgetMs`.
 */

/**
 * @typedef {object} PollResult
 * @property {INodeExecutionData[] | null} items What the poll returned: the items it emits, or
 *   null for "nothing new".
 * @property {Error[]} reportedErrors Errors the poll reported to n8n (saved as failed executions)
 *   while it went on.
 * @property {IDataObject} staticData The static data after the poll, as n8n would store it (JSON
 *   round trip).
 * @property {Error} [thrown] What the poll threw, if it stopped.
 */

/**
 * One poll of the trigger through n8n-core's own PollContext, as n8n runs it for an active
 * workflow (mode `trigger`) or for Fetch Test Event (mode `manual`). Each poll builds the workflow
 * anew from the stored static data, as after a restart.
 * @param {INode['parameters']} parameters
 * @param {PollOptions} options
 * @returns {Promise<PollResult>}
 */
async function pollTrigger(parameters, options) {
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
	/** @type {Error[]} */
	const reportedErrors = [];
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
	/** @type {INodeExecutionData[] | null} */
	let items = null;
	/** @type {Error | undefined} */
	let thrown;
	try {
		const result = await nodeType.poll?.call(context);
		items = result?.[0] ?? null;
	} catch (error) {
		thrown = /** @type {Error} */ (error);
	}
	/** @type {IDataObject} */
	const staticData = JSON.parse(JSON.stringify(workflow.staticData));
	const result = { items, reportedErrors, staticData, thrown };
	assertNoSecrets(result, Object.values(options.credentials));
	return result;
}

module.exports = {
	PACKAGE_NAME,
	NODE_TYPE,
	TRIGGER_TYPE,
	CREDENTIAL_TYPE,
	loadPackage,
	runWorkflow,
	readWorkflowFixture,
	oneNodeWorkflow,
	singleNodeWorkflow,
	assertNoSecrets,
	withCredential,
	pollTrigger,
	deduplicationStore,
};
