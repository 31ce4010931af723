// @ts-check
'use strict';
/**
 * Google Play's real-time developer notifications, pushed as Pub/Sub pushes them:
 * `{"message": {"data": <base64 notification>, "messageId", "publishTime"}, "subscription"}` with
 * `Authorization: Bearer <push token>`, the token signed by the sandbox's emulated Google
 * (sandbox/paymentProviders/googlePlay.js, keys made per run). `encode` also puts the sample's
 * `playApi` (the Play Developer API's answers) into the emulated API, which the trigger then asks.
 *
 * In this process (test:e2e, the unit tests) the emulation is the one the sandbox serves, so the
 * token is signed here with its key. From another process (`npm run send:webhook` beside
 * `npm start`), `viaSandbox` registers the purchase and mints the token over HTTP at the running
 * sandbox (`runningSandboxUrl` in support/payment/signer.js).
 *
 * The "secret" names the key that signs the token: Google's, or an unpublished one under Google's
 * kid (a forger's). The Signing Secret of the endpoint's credential is empty; the Google Play
 * Developer API credential holds the emulation's service account and its endpoints.
 */
const { googlePlayEmulation: emulation } = require('../../../sandbox');
const samples = require('../../../nodes/PaymentWebhookTrigger/providers/googlePlay/samples');
const { sampleDefaults } = require('../signer');

const AUDIENCE = 'https://n8n.example.test/webhook/google-play/webhook';
const PUSH_ACCOUNT = 'rtdn-push@example-project.iam.gserviceaccount.com';
/** The names of the two keys a token may be signed with (no key material: that stays in the emulation). */
const GOOGLE_KEY = 'emulated-google-signing-key';
const OTHER_KEY = 'unpublished-key-under-google-kid';

/** @typedef {Record<string, any>} Event */

/** The push body of a completed sample: the notification in `message.data`. @param {Event} event */
function pushBody(event) {
	const { pubsub, playApi, ...notification } = event;
	return JSON.stringify({
		message: {
			data: Buffer.from(JSON.stringify(notification)).toString('base64'),
			messageId: pubsub?.messageId,
			publishTime: pubsub?.publishTime,
		},
		subscription: pubsub?.subscription,
	});
}

/** What the emulated API holds for the sample's purchase. @param {Event} event */
function registrationOf(event) {
	const n =
		event.oneTimeProductNotification ??
		event.subscriptionNotification ??
		event.voidedPurchaseNotification;
	const order = event.playApi?.order;
	if (!n?.purchaseToken || !order) return null;
	return {
		purchaseToken: n.purchaseToken,
		orderId: order.orderId,
		...(event.playApi.purchase && { purchase: event.playApi.purchase }),
		order,
		...(event.playApi.failWith && { failWith: event.playApi.failWith }),
	};
}

/** @param {string} secret @param {Record<string, unknown>} [claims] */
const bearer = (secret, claims = {}) => ({
	authorization: `Bearer ${emulation.mintPushToken(
		{ aud: AUDIENCE, email: PUSH_ACCOUNT, ...claims },
		secret === OTHER_KEY ? 'other' : 'google',
	)}`,
});

/** The notification of a push body, changed by `change`, pushed again. @param {string} body @param {(n: Event) => void} change */
function withNotification(body, change) {
	const push = JSON.parse(body);
	const notification = JSON.parse(Buffer.from(push.message.data, 'base64').toString('utf8'));
	change(notification);
	push.message.data = Buffer.from(JSON.stringify(notification)).toString('base64');
	return JSON.stringify(push);
}

const now = () => Math.floor(Date.now() / 1000);

/** @type {import('../signer').Signer} */
module.exports = {
	secret: GOOGLE_KEY,
	otherSecret: OTHER_KEY,
	credentialData: { signingSecret: '' },
	nodeParameters: {
		packageName: samples.packageName,
		pushAudience: AUDIENCE,
		pushServiceAccount: PUSH_ACCOUNT,
	},
	apiCredential: {
		type: 'googlePlayApi',
		id: 'googlePlayApiDemo1',
		name: 'Google Play Developer API (sandbox emulation)',
		data: (sandboxUrl) => ({
			privateKeyJson: emulation.serviceAccountJson(),
			googleEndpoints: `${sandboxUrl}/__providers/googlePlay`,
		}),
	},
	signsTimestamp: false,
	demoCredential: { id: 'paySigningGooglePlay1', name: 'Google Play push (no secret; demo)' },
	encode: (event) => {
		const registered = registrationOf(event);
		if (registered) emulation.register(registered);
		return pushBody(event);
	},
	sign: (_rawBody, secret, { timestamp }) =>
		bearer(secret, { iat: timestamp, exp: timestamp + 3600 }),
	// Google signs the sender, not the bytes: the bad kinds are bad tokens, and a push for another app.
	badDeliveries: (bodyFor, secret) => [
		{ name: 'unsigned', body: bodyFor('unsigned'), headers: {} },
		{
			name: 'another audience',
			body: bodyFor('aud'),
			headers: bearer(secret, { aud: 'https://attacker.example/push' }),
		},
		{
			name: 'another service account',
			body: bodyFor('email'),
			headers: bearer(secret, { email: 'someone@else.iam.gserviceaccount.com' }),
		},
		{
			name: 'email not verified',
			body: bodyFor('unverified'),
			headers: bearer(secret, { email_verified: false }),
		},
		{
			name: 'expired token',
			body: bodyFor('expired'),
			headers: bearer(secret, { iat: now() - 7200, exp: now() - 3600 }),
		},
		{ name: 'signed by another key', body: bodyFor('other_key'), headers: bearer(OTHER_KEY) },
		{
			name: 'another package name',
			body: withNotification(bodyFor('package'), (n) => (n.packageName = 'com.example.another')),
			headers: bearer(secret),
		},
		{
			name: 'not a push',
			body: JSON.stringify({ orderId: 'not_a_push' }),
			headers: bearer(secret),
		},
	],
	failingDelivery: (transactionId) => {
		/** @type {Event} */
		const event = samples.sampleEvent('purchase', sampleDefaults('purchase', { transactionId }));
		event.playApi.failWith = 500;
		const body = module.exports.encode?.(event) ?? '';
		return { name: 'API failing', body, headers: bearer(GOOGLE_KEY) };
	},
	viaSandbox: async (event, sandboxUrl) => {
		const base = `${sandboxUrl}/__providers/googlePlay`;
		const post = async (/** @type {string} */ path, /** @type {unknown} */ json) => {
			const answer = await fetch(`${base}${path}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(json),
			});
			if (!answer.ok) throw new Error(`${base}${path} answered ${answer.status}`);
			return /** @type {Record<string, string>} */ (await answer.json());
		};
		const registered = registrationOf(event);
		if (registered) await post('/purchases', registered);
		const { token } = await post('/push-token', { aud: AUDIENCE, email: PUSH_ACCOUNT });
		return { body: pushBody(event), headers: { authorization: `Bearer ${token}` } };
	},
};
