/**
 * Google Play's parts around a push: Google's keys cached and refetched as pushTokens.ts says, the
 * Google Play Developer API credential's offline test, and the test override named at activation.
 */
import { generateKeyPairSync } from 'node:crypto';

import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import type { NetworkRequest } from '../../nodes/PaymentWebhookTrigger/provider';
import {
	clearKeyCache,
	keysFor,
} from '../../nodes/PaymentWebhookTrigger/providers/googlePlay/pushToken';
import { googlePlayEmulation as emulation } from '../../sandbox';
import { activateTrigger } from '../../support/fakes/fakeWebhookContext';
import { scenario } from '../../support/scenarios';

const URL = 'https://www.googleapis.com/oauth2/v3/certs';
const SET = (kid: string) => JSON.stringify({ keys: [{ kid, kty: 'RSA', n: 'AQAB', e: 'AQAB' }] });
const MINUTE = 60_000;

/** A network answering Google's keys with `kid` (or `status`), counting what it was asked. */
function google(answers: { kid?: string; status?: number; maxAge?: number }) {
	const asked: NetworkRequest[] = [];
	const network = async (request: NetworkRequest) => {
		asked.push(request);
		return {
			status: answers.status ?? 200,
			body: SET(answers.kid ?? 'k1'),
			headers: { 'cache-control': `public, max-age=${answers.maxAge ?? 3600}` },
		};
	};
	return { asked, network, answers };
}

beforeEach(() => clearKeyCache());

describe(scenario('paymentWebhook.googlePlay.keys'), () => {
	it('caches the keys for their max-age, and refetches once they are stale', async () => {
		const { asked, network } = google({ maxAge: 600 });
		await keysFor(URL, 'k1', network, 0);
		await keysFor(URL, 'k1', network, 599_000);
		expect(asked).toHaveLength(1);
		await keysFor(URL, 'k1', network, 600_000);
		expect(asked).toHaveLength(2);
	});

	it('refetches for an unknown kid at most once a minute', async () => {
		const { asked, network, answers } = google({});
		await keysFor(URL, 'k1', network, 0);
		await keysFor(URL, 'forged-1', network, 10_000);
		await keysFor(URL, 'forged-2', network, 30_000);
		expect(asked).toHaveLength(1);
		answers.kid = 'k2';
		const keys = await keysFor(URL, 'k2', network, MINUTE + 1);
		expect(asked).toHaveLength(2);
		expect(keys).toContain('"k2"');
	});

	it('caches no answer that is not a JWK Set', async () => {
		const asked: NetworkRequest[] = [];
		const network = async (request: NetworkRequest) => {
			asked.push(request);
			return { status: 200, body: '<html>maintenance</html>', headers: {} };
		};
		await expect(keysFor(URL, 'k1', network, 0)).rejects.toThrow('no JWK Set');
		await expect(keysFor(URL, 'k1', network, 1000)).rejects.toThrow('no JWK Set');
		expect(asked).toHaveLength(2);
	});

	it('keeps fresh keys when Google fails; with none cached, Google being down is a 503', async () => {
		const { network, answers } = google({});
		await keysFor(URL, 'k1', network, 0);
		answers.status = 500;
		await expect(keysFor(URL, 'k9', network, 2 * MINUTE)).resolves.toContain('"k1"');
		clearKeyCache();
		await expect(keysFor(URL, 'k1', network, 0)).rejects.toMatchObject({
			name: 'ProviderUnavailableError',
			message: expect.stringContaining('answered 500'),
		});
	});
});

describe(scenario('paymentWebhook.googlePlay.credential'), () => {
	const trigger = new PaymentWebhookTrigger();
	const credentialTest = async (data: Record<string, string>) =>
		await trigger.methods.credentialTest.providerApiCredential.call(
			{} as never,
			{
				id: 'c',
				name: 'c',
				type: 'googlePlayApi',
				data,
			} as never,
		);
	const key = emulation.serviceAccountJson();

	it('the key parses and signs, offline; the test override is named, never the key', async () => {
		await expect(credentialTest({ privateKeyJson: key })).resolves.toEqual({
			status: 'OK',
			message:
				'The credential is well formed for Google Play. Google Play is contacted at the first delivery.',
		});
		const replaced = await credentialTest({
			privateKeyJson: key,
			googleEndpoints: 'http://127.0.0.1:8787/__providers/googlePlay',
		});
		expect(replaced.message).toContain(
			'Note: its Google Endpoints (Tests Only) replaces Google\'s published keys, token endpoint and Play Developer API, for tests only: deliveries signed under "the keys at http://127.0.0.1:8787/__providers/googlePlay/oauth2/v3/certs" are taken as genuine.',
		);
		expect(replaced.message).not.toContain('PRIVATE KEY');
	});

	it.each([
		['an empty key', { privateKeyJson: '' }, 'The Service Account Key is empty'],
		['no JSON', { privateKeyJson: 'not json' }, 'is not JSON'],
		[
			'no service account',
			{ privateKeyJson: '{"type":"authorized_user"}' },
			'not a service account',
		],
		[
			'an EC key',
			{
				privateKeyJson: JSON.stringify({
					type: 'service_account',
					client_email: 'a@b.iam.gserviceaccount.com',
					private_key: generateKeyPairSync('ec', { namedCurve: 'P-256' })
						.privateKey.export({ type: 'pkcs8', format: 'pem' })
						.toString(),
				}),
			},
			'no RSA private key',
		],
		[
			'endpoints off the loopback',
			{ privateKeyJson: key, googleEndpoints: 'https://googleapis.example.com' },
			'loopback',
		],
	])('%s: an error naming it', async (_c, data, why) => {
		const result = await credentialTest(data);
		expect(result.status).toBe('Error');
		expect(result.message).toContain(why);
		expect(result.message).not.toContain('PRIVATE KEY');
	});

	it('activation with the test override warns once in the log', async () => {
		const logged = await activateTrigger('googlePlay', 'Play purchases', {
			googlePlayApi: {
				privateKeyJson: key,
				googleEndpoints: 'http://localhost:9/__providers/googlePlay',
			},
			paymentWebhookSigningApi: { signingSecret: '' },
		});
		expect(logged.map(({ message }) => message)).toEqual([
			expect.stringContaining(
				'Payment Webhook Trigger "Play purchases" (Google Play): its Google Endpoints (Tests Only) replaces',
			),
		]);
		expect(logged[0].message).toContain('Each item it emits carries pinnedRootReplaced: true.');
	});
});
