import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IExecuteFunctions,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { runForEachItem, type Operation } from '../shared/helpers/itemLoop';
import { assertSupportedN8n, MAIN_CONNECTION } from '../shared/helpers/n8nCompatibility';
import { parseRunOptions } from '../shared/helpers/runOptions';
import { LABELS, properties } from './description';
import { checkCredential } from './providers';
import { readEvents } from './reader';
import CODEX_FILE from './PaymentProviderEvents.node.json';

assertSupportedN8n();

/**
 * One run per input item (usually one, from a Schedule Trigger), one after the other: each holds
 * its items and a page. A read changes nothing, so a stopped run may be run again whole.
 */
const READ_EVENTS: Operation = {
	profile: {
		action: 'Read Events',
		kind: 'read',
		key: { displayName: LABELS.cursor, name: 'cursor' },
	},
	execute: async ({ context, itemIndex }) => await readEvents(context, itemIndex),
};
const ONE_AT_A_TIME = parseRunOptions({ concurrency: 1 });

export class PaymentProviderEvents implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Provider Events',
		name: 'paymentProviderEvents',
		icon: {
			light: 'file:../../icons/paymentProviderEvents.svg',
			dark: 'file:../../icons/paymentProviderEvents.dark.svg',
		},
		group: ['input'],
		version: 1,
		subtitle: '={{ $parameter["provider"] }}',
		description:
			"Reads a payment provider's event history page by page and emits the items the Payment Webhook Trigger makes of the same events, for reconciling lost webhooks",
		defaults: { name: 'Payment Provider Events' },
		// Lint asks every node to say; a read of events changes nothing, so an agent may call it.
		usableAsTool: true,
		inputs: [MAIN_CONNECTION],
		outputs: [MAIN_CONNECTION],
		// One credential for every provider: its Provider field says whose key it holds, and a run
		// whose Provider is another's fails before any request.
		credentials: [{ name: 'paymentProviderApi', required: true, testedBy: 'paymentProviderApi' }],
		properties,
		codex: {
			categories: CODEX_FILE.categories,
			resources: CODEX_FILE.resources,
			alias: CODEX_FILE.alias,
		},
	};

	methods = {
		credentialTest: {
			/**
			 * Checked offline by the credential's provider, nothing sent: a credential test function
			 * has only n8n's deprecated request helper. The first run proves the key with the provider.
			 */
			async paymentProviderApi(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return checkCredential(credential.data ?? {});
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runForEachItem(this, READ_EVENTS, ONE_AT_A_TIME);
	}
}
