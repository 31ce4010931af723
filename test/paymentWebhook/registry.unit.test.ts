/**
 * The provider registry (nodes/PaymentWebhookTrigger/providers/modules.ts) against everything that
 * must name each provider: the Provider selector, its test signer and samples, the codex aliases
 * and the credential's help text. A provider missing from any of them fails here.
 */
import { PaymentWebhookSigningApi } from '../../credentials/PaymentWebhookSigningApi.credentials';
import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import {
	PROVIDER_PARAMETER,
	PROVIDERS,
	SIGNS_NO_TIMESTAMP,
} from '../../nodes/PaymentWebhookTrigger/providers';
import { readerOf } from '../../nodes/PaymentWebhookTrigger/provider';
import { scenario } from '../../support/scenarios';
import { readSources } from '../../support/testing/sourceFiles';
import {
	PROVIDERS as SIGNED,
	SAMPLES,
	SIGNS_NO_TIMESTAMP as SIGNED_UNTIMED,
} from '../../support/payment/paymentSignatures';

const { codex } = new PaymentWebhookTrigger().description;
const CREDENTIAL = new PaymentWebhookSigningApi().properties;
const helpOf = (field: string) => CREDENTIAL.find(({ name }) => name === field)?.description ?? '';
const IDS = PROVIDERS.map(({ id }) => id);

const FOLDER = 'nodes/PaymentWebhookTrigger/providers';
/** Paths of the trigger's shipped files. */
const inTrigger = (...files: string[]) =>
	files.map((file) => `nodes/PaymentWebhookTrigger/${file}`);
/**
 * The shipped files, but for Payment Provider Events and its credential: a node of a few
 * providers' own APIs (Stripe's, Paddle's, the App Store's), which names them by design; it finds
 * their events in this registry.
 */
const PROVIDER_API_FILES = [
	'nodes/PaymentProviderEvents/',
	'credentials/PaymentProviderApi.credentials.ts',
];
const SHIPPED = readSources(['nodes', 'credentials']).filter(
	({ path }) => !PROVIDER_API_FILES.some((file) => path.startsWith(file)),
);

/**
 * The shipped files outside its folder and the registry that name one of the providers the
 * registry began with: the signature schemes and money formats they share (hmac.ts, money.ts),
 * the default provider, Stripe's redelivery window, Polar and Dodo Payments signing with the
 * Standard Webhooks scheme, and the Standard Webhooks provider that still reads Polar's order
 * events for workflows saved before Polar had its own. A provider added since is named nowhere
 * else.
 */
const NAMED_ELSEWHERE: Partial<Record<string, string[]>> = {
	stripe: [
		...inTrigger('providers/index.ts', 'description.ts', 'hmac.ts', 'money.ts', 'provider.ts'),
		'nodes/shared/helpers/sendOnce.ts',
	],
	paddle: inTrigger('description.ts', 'hmac.ts', 'money.ts'),
	lemonSqueezy: inTrigger('description.ts', 'hmac.ts'),
	creem: inTrigger('hmac.ts'),
	// Its own API credential (a service account), and the trigger's entry for it, written out
	// because n8n's lint reads which node tests a credential.
	googlePlay: [
		'credentials/GooglePlayApi.credentials.ts',
		'nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node.ts',
	],
	standardWebhooks: inTrigger(
		'events.ts',
		'hmac.ts',
		'provider.ts',
		'providers/polar/polar.ts',
		'providers/dodo/dodo.ts',
	),
	polar: inTrigger('providers/standardWebhooks/standardWebhooks.ts'),
};

/** The words that name a provider: its ID, its name and its codex aliases, as whole words. */
function namesOf({ id, name, codexAliases }: (typeof PROVIDERS)[number]): RegExp {
	const words = [id, name, ...codexAliases].map((word) =>
		word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s?'),
	);
	return new RegExp(`(?<![\\w/])(${words.join('|')})(?!\\w)`, 'i');
}

describe(scenario('paymentWebhook.registry'), () => {
	it('the selector has one option per provider, sorted by name', () => {
		expect(PROVIDER_PARAMETER.options.map(({ value }) => value).sort()).toEqual([...IDS].sort());
		const names = PROVIDER_PARAMETER.options.map(({ name }) => name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it('each provider has a signer and samples (found by listing), and nothing else has', () => {
		expect([...SIGNED].sort()).toEqual([...IDS].sort());
		expect([...SIGNED_UNTIMED].sort()).toEqual([...SIGNS_NO_TIMESTAMP].sort());
	});

	it.each(IDS)('%s: its samples are events it reads', (id) => {
		const { events } = PROVIDERS.find((provider) => provider.id === id)!;
		const { purchase, refund } = SAMPLES[id].eventTypes;
		expect(readerOf(events, purchase)?.kind).toBe('purchase');
		expect(readerOf(events, refund)?.kind).toBe('refund');
	});

	it.each(PROVIDERS.map((provider) => [provider.id, provider] as const))(
		'%s: the codex holds its aliases and its credential field its text',
		(_id, { codexAliases, credentialHelp, name }) => {
			expect(codexAliases.length).toBeGreaterThan(0);
			expect(codex?.alias).toEqual(expect.arrayContaining([...codexAliases]));
			expect(helpOf(credentialHelp.field)).toContain(credentialHelp.text);
			expect(credentialHelp.text).toMatch(new RegExp(name.split(' ')[0], 'i'));
		},
	);

	it.each(PROVIDERS.map((provider) => [provider.id, provider] as const))(
		'%s: no shipped file outside its folder and its registry line names it',
		(id, provider) => {
			const names = namesOf(provider);
			const naming = SHIPPED.filter(
				({ path, source }) =>
					!path.startsWith(`${FOLDER}/${id}/`) &&
					path !== `${FOLDER}/modules.ts` &&
					names.test(source),
			).map(({ path }) => path);
			expect(naming.sort()).toEqual([...(NAMED_ELSEWHERE[id] ?? [])].sort());
		},
	);

	it("the codex keeps its .node.json's categories, documentation and generic words", () => {
		const file = jest.requireActual<Record<string, unknown>>(
			'../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node.json',
		);
		expect(codex).toMatchObject({ categories: file.categories, resources: file.resources });
		expect(codex?.alias).toEqual(expect.arrayContaining(file.alias as string[]));
	});
});
