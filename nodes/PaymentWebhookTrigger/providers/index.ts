/**
 * The payment providers the trigger offers, read from the registry (modules.ts), and what derives
 * from them: the Provider selector, which sign no timestamp, the credential's help text and the
 * codex aliases. The node, its description, the credential, the item builder and the tests know
 * the providers only from here.
 *
 * A new provider: its folder `<id>/` (`<id>.ts`, the module; `samples.js`, its sample events for
 * the tests), its test signer `support/payment/signers/<id>.js`, and its line in modules.ts.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { CredentialHelp, PaymentProvider } from '../provider';
import * as MODULES from './modules';

type Module = (typeof MODULES)[keyof typeof MODULES];

/** The modules, in the registry's order. */
export const PROVIDERS: readonly Module[] = Object.values(MODULES);

/** A provider's ID, as saved workflows hold it in the `provider` parameter. */
export type Provider = Module['id'];

export const DEFAULT_PROVIDER: Provider = 'stripe';

/** The Provider selector: one option per module, sorted by name. */
export const PROVIDER_PARAMETER: Omit<INodeProperties, 'options'> & {
	options: INodePropertyOptions[];
} = {
	displayName: 'Provider',
	name: 'provider',
	type: 'options',
	noDataExpression: true,
	options: PROVIDERS.map(({ id, name, signing }) => ({
		name,
		value: id,
		description: signing,
	})).sort((a, b) => a.name.localeCompare(b.name)),
	default: DEFAULT_PROVIDER,
	description: 'Who signs the deliveries, and how',
};

/** The providers that sign no timestamp: nothing is stale, the tolerance option is hidden. */
export const SIGNS_NO_TIMESTAMP: Provider[] = PROVIDERS.filter(
	({ signsTimestamp }) => !signsTimestamp,
).map(({ id }) => id);

/** What a credential field's help text says of the providers that use it, in the registry's order. */
export function credentialHelpOf(field: CredentialHelp['field']): string {
	const texts = PROVIDERS.filter(({ credentialHelp }) => credentialHelp.field === field).map(
		({ credentialHelp }) => credentialHelp.text,
	);
	return texts.join('; ');
}

/** Every provider's codex aliases, in the registry's order. */
export const PROVIDER_ALIASES: string[] = PROVIDERS.flatMap(({ codexAliases }) => [
	...codexAliases,
]);

export function isProvider(id: string): id is Provider {
	return PROVIDERS.some((provider) => provider.id === id);
}

/** A provider by its ID in the registry, or its module itself (a test's module is not registered). */
export type ProviderRef = Provider | PaymentProvider;

export function moduleOf(ref: ProviderRef): PaymentProvider {
	return typeof ref === 'string' ? providerOf(ref) : ref;
}

/** The module of a provider ID (every ID names one: the type says so). */
export function providerOf(id: Provider): PaymentProvider<Provider> {
	return PROVIDERS.find((provider) => provider.id === id) as PaymentProvider<Provider>;
}

/** A provider's name, as its option shows it (its ID for a module not registered). */
export function nameOf(id: string): string {
	return PROVIDERS.find((provider) => provider.id === id)?.name ?? id;
}
