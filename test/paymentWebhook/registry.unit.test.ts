/**
 * The provider registry (nodes/PaymentWebhookTrigger/providers/index.ts) against everything that
 * must name each provider: its option in the Provider selector, its independent test signer
 * (support/payment/signers/<id>.js, discovered) and sample events, the node's codex aliases and
 * the credential's help text. A provider left out of any of them fails here.
 */
import { PaymentWebhookSigningApi } from '../../credentials/PaymentWebhookSigningApi.credentials';
import {
	PROVIDER_PARAMETER,
	PROVIDERS,
	SIGNS_NO_TIMESTAMP,
} from '../../nodes/PaymentWebhookTrigger/providers';
import { readerOf } from '../../nodes/PaymentWebhookTrigger/provider';
import { scenario } from '../../support/scenarios';
import { readRepoFile } from '../../support/testing/repoFile';
import {
	PROVIDERS as SIGNED,
	SAMPLES,
	SIGNS_NO_TIMESTAMP as SIGNED_UNTIMED,
} from '../../support/payment/paymentSignatures';

const CODEX = JSON.parse(
	readRepoFile('nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node.json'),
) as { alias: string[] };
const CREDENTIAL_TEXT = new PaymentWebhookSigningApi().properties
	.map(({ description }) => description ?? '')
	.join('\n');
const IDS = PROVIDERS.map(({ id }) => id);

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
		'%s: the codex holds its aliases and the credential its text',
		(_id, { codexAliases, credentialText }) => {
			expect(codexAliases.length).toBeGreaterThan(0);
			expect(CODEX.alias).toEqual(expect.arrayContaining([...codexAliases]));
			expect(CREDENTIAL_TEXT).toContain(credentialText);
		},
	);
});
