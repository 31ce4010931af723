// @ts-check
'use strict';
/**
 * Signs payment-provider webhook deliveries as each provider does, and gives each provider's
 * sample events. The providers are discovered (a signer per file in support/payment/signers/, the
 * samples in the provider's folder), so that a new provider adds no line here.
 */
const { readdirSync } = require('node:fs');
const path = require('node:path');

const { sampleDefaults } = require('./signer');

const SIGNERS_DIR = path.join(__dirname, 'signers');
const PROVIDERS_DIR = path.join(__dirname, '../../nodes/PaymentWebhookTrigger/providers');

/**
 * @typedef {import('../../nodes/PaymentWebhookTrigger/providers').Provider} Provider
 * @typedef {import('../../nodes/PaymentWebhookTrigger/provider').ProviderSecrets} ProviderSecrets
 * @typedef {import('./signer').SampleFields} SampleFields
 */

/** Every provider with a signer, by ID in alphabetical order. @type {Provider[]} */
const PROVIDERS = /** @type {Provider[]} */ (
	readdirSync(SIGNERS_DIR)
		.filter((name) => name.endsWith('.js'))
		.map((name) => name.slice(0, -'.js'.length))
		.sort()
);

/** @template T @param {(id: Provider) => T} pick @returns {Record<Provider, T>} */
const byProvider = (pick) =>
	/** @type {Record<Provider, T>} */ (Object.fromEntries(PROVIDERS.map((id) => [id, pick(id)])));

/** @type {Record<Provider, import('./signer').Signer>} */
const SIGNERS = byProvider((id) => require(path.join(SIGNERS_DIR, `${id}.js`)));

/**
 * Each provider's samples; `eventIdFrom` is `body` where they do not say.
 * @type {Record<Provider, import('./signer').Samples & { eventIdFrom: string }>}
 */
const SAMPLES = byProvider((id) => ({
	eventIdFrom: 'body',
	...require(path.join(PROVIDERS_DIR, id, 'samples.js')),
}));

/** The providers that sign no timestamp: none of their deliveries can be stale. */
const SIGNS_NO_TIMESTAMP = PROVIDERS.filter((id) => SIGNERS[id].signsTimestamp === false);

/** Test-only endpoint secrets, one per provider, in each provider's own format. */
const TEST_SIGNING_SECRETS = byProvider((id) => SIGNERS[id].secret);

/** Another endpoint's secret per provider (a secret roll, a wrong key). */
const OTHER_SIGNING_SECRETS = byProvider((id) => SIGNERS[id].otherSecret);

/** The header that carries each provider's signature (lower case); empty when it signs in the body. */
const SIGNATURE_HEADERS = byProvider((id) => SIGNERS[id].signatureHeader ?? '');

/**
 * The providers whose body is the event as JSON, signed in a header and checked offline: the
 * shared signature suites cover them. The others (a sealed resource, a signed form, a certificate
 * fetched for the check) have suites of their own.
 */
const PLAIN_JSON_PROVIDERS = PROVIDERS.filter(
	(id) =>
		SIGNERS[id].encode === undefined &&
		SIGNERS[id].signatureHeader !== undefined &&
		SIGNERS[id].fetchesCertificate !== true,
);

/** The demo's signing credential per provider (examples (a) and (h) refer to Stripe's). */
const DEMO_SIGNING_CREDENTIALS = byProvider((id) => SIGNERS[id].demoCredential);

/** The test endpoint's (the demo's) credential fields. @param {Provider} provider @returns {Record<string, string>} */
const credentialDataOf = (provider) =>
	SIGNERS[provider].credentialData ?? { signingSecret: SIGNERS[provider].secret };

/**
 * The trigger's credentials for `provider`'s test endpoint, as a workflow names them: its demo
 * signing credential and, for a provider that reads its API, its API credential.
 * @param {Provider} provider @returns {Record<string, { id: string, name: string }>}
 */
function triggerCredentialsOf(provider) {
	const api = SIGNERS[provider].apiCredential;
	return {
		paymentWebhookSigningApi: DEMO_SIGNING_CREDENTIALS[provider],
		...(api && { [api.type]: { id: api.id, name: api.name } }),
	};
}

/**
 * The providers' API credentials for the sandbox at `sandboxUrl`, in `n8n import:credentials` form.
 * @param {string} sandboxUrl
 */
const apiCredentialsFor = (sandboxUrl) =>
	PROVIDERS.flatMap((id) => {
		const api = SIGNERS[id].apiCredential;
		return api ? [{ id: api.id, name: api.name, type: api.type, data: api.data(sandboxUrl) }] : [];
	});

/** Each provider's body content type (read without encoding an event: a sealed one needs one). */
const CONTENT_TYPES = byProvider((id) => SIGNERS[id].contentType ?? 'application/json');

/** The test endpoint's values of the provider's own node parameters. @param {Provider} provider */
const nodeParametersOf = (provider) => SIGNERS[provider].nodeParameters ?? {};

/**
 * An event's body as the provider sends it, and its content type.
 * @param {Provider} provider @param {Record<string, unknown>} event
 */
function encodeEvent(provider, event) {
	const { encode } = SIGNERS[provider];
	const body = encode ? encode(event) : JSON.stringify(event);
	return { body, contentType: CONTENT_TYPES[provider] };
}

/**
 * The provider's own bad kinds of delivery: `generic` (the kinds every provider gets) unless its
 * signer replaces them, then the signer's own.
 * @param {Provider} provider @param {(name: string) => string} bodyFor
 * @param {() => import('./signer').BadDelivery[]} generic
 * @returns {import('./signer').BadDelivery[]}
 */
function badDeliveriesOf(provider, bodyFor, generic) {
	const signer = SIGNERS[provider];
	return [
		...(signer.badDeliveries?.(bodyFor, signer.secret) ?? generic()),
		...(signer.moreBadDeliveries?.(bodyFor, signer.secret) ?? []),
	];
}

/** The credential's fields, only the Signing Secret set. @param {string} signingSecret @returns {ProviderSecrets} */
const withSigningSecret = (signingSecret) => {
	const empty = { publicKey: '', publicKeyId: '', decryptionSecret: '', rootCa: '' };
	return { signingSecret, ...empty };
};

/**
 * The test endpoint's credential, every field its signer does not set empty.
 * @param {Provider} provider @returns {ProviderSecrets}
 */
const testSecretsOf = (provider) => ({ ...withSigningSecret(''), ...credentialDataOf(provider) });

/**
 * The headers `provider` sends with `rawBody`, signed now with its test (the demo's) secret.
 * @param {Provider} provider @param {string} rawBody
 */
const signWithTestSecret = (provider, rawBody) =>
	signDelivery(provider, rawBody, TEST_SIGNING_SECRETS[provider]);

/**
 * The headers a provider sends with `rawBody`, signed with `secret` at `timestamp` (Unix seconds;
 * now when absent). The body must be sent byte for byte as given.
 * @param {Provider} provider @param {string} rawBody @param {string} secret
 * @param {{ timestamp?: number, eventId?: string }} [options]
 * @returns {Record<string, string>}
 */
function signDelivery(provider, rawBody, secret, { timestamp, eventId } = {}) {
	const signer = SIGNERS[provider];
	if (signer === undefined) throw new Error(`Unknown provider ${String(provider)}`);
	const at = timestamp ?? Math.floor(Date.now() / 1000);
	return signer.sign(rawBody, secret, { timestamp: at, eventId });
}

/**
 * A documented purchase or refund event of `provider`, as the provider sends it (its samples.js).
 * @param {Provider} provider @param {'purchase' | 'refund'} kind @param {SampleFields} fields
 * @returns {Record<string, unknown>}
 */
function sampleEvent(provider, kind, fields) {
	const samples = SAMPLES[provider];
	if (samples === undefined) throw new Error(`Unknown provider ${String(provider)}`);
	return samples.sampleEvent(kind, sampleDefaults(kind, fields));
}

/** The providers whose samples hold disputes (a lost one reverses commissions). */
const DISPUTING_PROVIDERS = PROVIDERS.filter((id) => SAMPLES[id].disputeEvent !== undefined);

/**
 * A dispute of `provider` that was opened, won by the brand, or lost (a chargeback), as the
 * provider sends it (its samples.js); 100.00 USD unless said.
 * @param {Provider} provider @param {import('./signer').DisputeOutcome} outcome
 * @param {{ transactionId: string, amountMinor?: number, currency?: string, eventId?: string }} fields
 * @returns {Record<string, unknown>}
 */
function disputeEvent(provider, outcome, fields) {
	const dispute = SAMPLES[provider]?.disputeEvent;
	if (dispute === undefined) throw new Error(`No dispute samples for ${String(provider)}`);
	const { transactionId, amountMinor = 10000, currency = 'USD' } = fields;
	const eventId = fields.eventId ?? `evt_dispute_${outcome}_${transactionId}`;
	return dispute(outcome, { transactionId, amountMinor, currency, eventId });
}

module.exports = {
	apiCredentialsFor,
	triggerCredentialsOf,
	CONTENT_TYPES,
	PLAIN_JSON_PROVIDERS,
	DEMO_SIGNING_CREDENTIALS,
	DISPUTING_PROVIDERS,
	SIGNERS,
	OTHER_SIGNING_SECRETS,
	PROVIDERS,
	SAMPLES,
	SIGNATURE_HEADERS,
	SIGNS_NO_TIMESTAMP,
	TEST_SIGNING_SECRETS,
	disputeEvent,
	credentialDataOf,
	encodeEvent,
	nodeParametersOf,
	badDeliveriesOf,
	sampleEvent,
	signDelivery,
	signWithTestSecret,
	testSecretsOf,
	withSigningSecret,
};
