/**
 * The direction of imports in the sources: the node folders (the node's actions, the trigger)
 * use the shared helpers, which use the shared transport, which uses nothing of ours; the API
 * credential uses only the transport, the payment credential only the providers' registry; no
 * node folder uses another, but for Payment Provider Events, which makes its items with the
 * Payment Webhook Trigger's readers; the Payment Webhook Trigger uses only its own folder and the
 * helpers; the Payment Provider API credential uses only the node's App Store token signer.
 * The transport reads no node parameter: it is given its settings.
 */
import { scenario } from '../../support/scenarios';
import { readSources } from '../../support/testing/sourceFiles';

type LayerName =
	| 'transport'
	| 'helpers'
	| 'node'
	| 'trigger'
	| 'paymentTrigger'
	| 'paymentCredential'
	| 'appStoreToken'
	| 'paymentEvents'
	| 'providerApiCredential'
	| 'credential';

/** Every layer, its folder, and the layers its files may import (their own included). */
const LAYERS: ReadonlyArray<{ name: LayerName; folder: string; mayImport: LayerName[] }> = [
	{ name: 'transport', folder: 'nodes/shared/transport', mayImport: ['transport'] },
	{ name: 'helpers', folder: 'nodes/shared/helpers', mayImport: ['helpers', 'transport'] },
	{
		name: 'node',
		folder: 'nodes/AffiliateTracking',
		mayImport: ['node', 'helpers', 'transport'],
	},
	{
		name: 'trigger',
		folder: 'nodes/AffiliateTrackingTrigger',
		mayImport: ['trigger', 'helpers', 'transport'],
	},
	{
		// The Payment Webhook Trigger talks to no API: only the compatibility helpers.
		name: 'paymentTrigger',
		folder: 'nodes/PaymentWebhookTrigger',
		mayImport: ['paymentTrigger', 'helpers'],
	},
	{
		// Its help text is what the providers' modules say of their fields.
		name: 'paymentCredential',
		folder: 'credentials/PaymentWebhookSigningApi.credentials.ts',
		mayImport: ['paymentTrigger'],
	},
	{
		// The App Store Server API's token (ES256, node:crypto only): the credential signs each
		// request with it, the node's credential test checks the key with it. Listed before its
		// node's folder, so that it is a layer of its own.
		name: 'appStoreToken',
		folder: 'nodes/PaymentProviderEvents/providers/appStoreToken.ts',
		mayImport: ['appStoreToken'],
	},
	{
		// Payment Provider Events makes the same items of the same events as the Payment Webhook
		// Trigger (its item builder, its providers' event lists, Apple's verification), and sends
		// through its own transport.ts: the only node folder that may use another.
		name: 'paymentEvents',
		folder: 'nodes/PaymentProviderEvents',
		mayImport: ['paymentEvents', 'appStoreToken', 'paymentTrigger', 'helpers'],
	},
	{
		// Its authenticate() signs each App Store request's token: the token signer only, not the
		// node.
		name: 'providerApiCredential',
		folder: 'credentials/PaymentProviderApi.credentials.ts',
		mayImport: ['appStoreToken'],
	},
	{ name: 'credential', folder: 'credentials', mayImport: ['credential', 'transport'] },
];

/** Planted sources written `file: source`, as [file, source]. */
const planted = (rows: string[]) => rows.map((row) => row.split(/: (.*)/s, 2) as [string, string]);

/** The layer of a file, named with its extension (a source) or without (an import). */
function layerOf(path: string) {
	const bare = (name: string) => name.replace(/\.ts$/, '');
	return LAYERS.find(({ folder }) => bare(path) === bare(folder) || path.startsWith(`${folder}/`));
}

/** The module names a file imports, re-exports or requires. */
function importsOf(source: string): string[] {
	const pattern =
		/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]/g;
	return [...source.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? match[3]);
}

/** The path an import of `file` names, from the repository root. */
function resolveFrom(file: string, name: string): string {
	return new URL(name, `file:///${file}`).pathname.slice(1);
}

/** The imports of `file` (a path from the repository root) that cross the order. */
function violations(file: string, source: string): string[] {
	const layer = layerOf(file);
	if (layer === undefined) return [`${file} is in no layer`];
	return importsOf(source)
		.filter((name) => name.startsWith('.'))
		.flatMap((name) => {
			const target = layerOf(resolveFrom(file, name));
			if (target !== undefined && layer.mayImport.includes(target.name)) return [];
			return [`${file} (${layer.name}) imports ${name} (${target?.name ?? 'outside the layers'})`];
		});
}

const SOURCES = readSources(['nodes', 'credentials']);

/** A call of one of n8n's HTTP helpers (this.helpers.httpRequest…, context.helpers.request…). */
const SENDS = /\bhelpers\s*\.\s*(httpRequest|request)\w*/;

/**
 * A read of node parameters: n8n's getNodeParameter, getCurrentNodeParameter(s), a node's
 * `parameters`, or `parameters` destructured from getNode().
 */
const READS_PARAMETERS =
	/\bget(?:Current)?NodeParameters?\b|\.\s*parameters\b|\{[^}]*\bparameters\b[^}]*\}\s*=\s*[\w.]*getNode\(\)/;

describe(scenario('package.layers'), () => {
	it('every source file belongs to a layer', () => {
		expect(SOURCES.length).toBeGreaterThan(30);
		expect(SOURCES.filter(({ path }) => layerOf(path) === undefined)).toEqual([]);
	});

	it('no import of nodes/ or credentials/ crosses the order', () => {
		const found = SOURCES.flatMap(({ path, source }) => violations(path, source));
		expect(found).toEqual([]);
	});

	it("only the three transports send requests: the service's, the providers' (Payment Provider Events) and the Payment Webhook Trigger's", () => {
		const senders = SOURCES.filter(({ source }) => SENDS.test(source)).map(({ path }) => path);
		expect(senders.sort()).toEqual([
			'nodes/PaymentProviderEvents/transport.ts',
			'nodes/PaymentWebhookTrigger/network.ts',
			'nodes/shared/transport/index.ts',
		]);
		expect(SENDS.test('await this.helpers.httpRequest(options)')).toBe(true);
		expect(SENDS.test('context.helpers.requestWithAuthentication.call(context, name, o)')).toBe(
			true,
		);
		expect(SENDS.test('this.helpers.checkProcessedAndRecord(items)')).toBe(false);
	});

	it('nothing under nodes/shared/transport reads a node parameter', () => {
		const transport = SOURCES.filter(({ path }) => layerOf(path)?.name === 'transport');
		expect(transport.length).toBeGreaterThan(5);
		const readers = transport.filter(({ source }) => READS_PARAMETERS.test(source));
		expect(readers.map(({ path }) => path)).toEqual([]);
	});

	it.each([
		"const options = context.getNodeParameter('options', 0, {});",
		"const options = this.getNodeParameter('options', {}) as IDataObject;",
		'const all = context.getCurrentNodeParameters();',
		'const timeout = context.getNode().parameters.options;',
		'const { parameters } = context.getNode();',
	])('catches a planted read of node parameters: %s', (source) => {
		expect(READS_PARAMETERS.test(source)).toBe(true);
	});

	it.each([
		"'The service refused the request as invalid. Check the parameters named in the message.'",
		'const { baseUrl, signatureVersion } = credentials.parsed;',
		'settings.timeoutMs',
	])('lets the transport write of parameters and read its settings: %s', (source) => {
		expect(READS_PARAMETERS.test(source)).toBe(false);
	});

	// Planted sources, `file: source`: the check must catch each of these.
	it.each(
		planted([
			"nodes/AffiliateTrackingTrigger/AffiliateTrackingTrigger.node.ts: import { profile } from '../AffiliateTracking/actions/promoter/getBalances.operation';",
			"nodes/AffiliateTracking/actions/router.ts: import type { TriggerEvent } from '../../AffiliateTrackingTrigger/changes';",
			"nodes/shared/helpers/itemLoop.ts: import { router } from '../../AffiliateTracking/actions/router';",
			"nodes/shared/transport/index.ts: import { readRunOptions } from '../helpers/runOptions';",
			"nodes/shared/transport/errors.ts: export { RESULT_FIGURES } from '../../AffiliateTrackingTrigger/changes';",
			"credentials/AffiliateTrackingApi.credentials.ts: import { MAIN_CONNECTION } from '../nodes/shared/helpers/n8nCompatibility';",
			"nodes/shared/helpers/validation.ts: const fake = require('../../../support/fakes/fakeContext');",
			"nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node.ts: import { apiRequest } from '../shared/transport';",
			"nodes/AffiliateTrackingTrigger/changes.ts: import { PROVIDERS } from '../PaymentWebhookTrigger/signatures';",
			"nodes/PaymentWebhookTrigger/events.ts: import { cursorsOf } from '../PaymentProviderEvents/cursor';",
			"nodes/PaymentProviderEvents/reader.ts: import { apiRequest } from '../shared/transport';",
			"nodes/PaymentProviderEvents/reader.ts: import { router } from '../AffiliateTracking/actions/router';",
			"credentials/PaymentProviderApi.credentials.ts: import { readEvents } from '../nodes/PaymentProviderEvents/reader';",
			"credentials/PaymentProviderApi.credentials.ts: import { PADDLE_HOSTS } from '../nodes/PaymentProviderEvents/providers/paddle';",
			"credentials/PaymentWebhookSigningApi.credentials.ts: import { appStoreToken } from '../nodes/PaymentProviderEvents/providers/appStoreToken';",
			"nodes/PaymentProviderEvents/providers/appStoreToken.ts: import { objectOf } from '../source';",
		]),
	)('catches a planted import in %s: %s', (file, source) => {
		expect(violations(file, source)).toHaveLength(1);
	});

	it.each(
		planted([
			"nodes/shared/helpers/itemLoop.ts: import { apiRequest } from '../transport';",
			"nodes/AffiliateTrackingTrigger/AffiliateTrackingTrigger.node.ts: import { promoterBalancesProfile } from '../shared/helpers/promoterReads';",
			"credentials/AffiliateTrackingApi.credentials.ts: import { signRequestOptions } from '../nodes/shared/transport/requestSigner';",
			"nodes/shared/transport/signing.ts: import { createHash } from 'node:crypto';",
			"nodes/PaymentProviderEvents/reader.ts: import { paymentEventItem } from '../PaymentWebhookTrigger/events';",
			"nodes/PaymentProviderEvents/PaymentProviderEvents.node.ts: import { runForEachItem } from '../shared/helpers/itemLoop';",
			"credentials/PaymentProviderApi.credentials.ts: import { appStoreToken } from '../nodes/PaymentProviderEvents/providers/appStoreToken';",
		]),
	)('lets %s import downwards: %s', (file, source) => {
		expect(violations(file, source)).toEqual([]);
	});
});
