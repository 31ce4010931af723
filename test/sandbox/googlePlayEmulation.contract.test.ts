/**
 * The sandbox's emulated Google (sandbox/paymentProviders/googlePlay.js) over real HTTP, under
 * /__providers/googlePlay: the push keys with their max-age, the token endpoint's checks of the
 * service account's assertion, and the Play Developer API answering only with its access token,
 * for registered purchases, or failing as a purchase registered to fail asks.
 */
import { generateKeyPairSync } from 'node:crypto';

import {
	assertionOf,
	serviceAccountOf,
	type ServiceAccount,
} from '../../nodes/PaymentWebhookTrigger/providers/googlePlay/playApi';
import { googlePlayEmulation as emulation, Sandbox } from '../../sandbox';
import { scenario } from '../../support/scenarios';

describe(scenario('sandbox.googlePlay'), () => {
	const sandbox = new Sandbox({ port: 0 });
	let base = '';
	beforeAll(async () => {
		await sandbox.start();
		base = `${sandbox.url}/__providers/googlePlay`;
	});
	afterAll(async () => await sandbox.stop());

	const account = serviceAccountOf(emulation.serviceAccountJson()) as ServiceAccount;
	const now = () => Math.floor(Date.now() / 1000);
	const token = async (assertion: string) => {
		const answer = await fetch(`${base}/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
				assertion,
			}).toString(),
		});
		return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
	};
	const api = async (path: string, accessToken?: string) => {
		const answer = await fetch(`${base}/androidpublisher/v3/applications/com.example.app/${path}`, {
			headers: accessToken === undefined ? {} : { authorization: `Bearer ${accessToken}` },
		});
		return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
	};

	it("serves Google's keys as a JWK Set, with a max-age", async () => {
		const answer = await fetch(`${base}/oauth2/v3/certs`);
		expect(answer.headers.get('cache-control')).toBe('public, max-age=3600');
		const { keys } = (await answer.json()) as { keys: Array<Record<string, string>> };
		expect(keys.map(({ kid, kty, alg }) => [kid, kty, alg])).toEqual([
			[emulation.KID, 'RSA', 'RS256'],
		]);
	});

	it("issues an access token for the service account's assertion, and refuses another key's", async () => {
		const good = await token(assertionOf(account, `${base}/token`, now()));
		expect(good).toMatchObject({ status: 200, body: { token_type: 'Bearer', expires_in: 3599 } });
		const other = {
			...account,
			privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
		};
		expect((await token(assertionOf(other, `${base}/token`, now()))).status).toBe(400);
		expect(
			(await token(assertionOf(account, 'https://elsewhere.example/token', now()))).status,
		).toBe(400);
		expect((await token(assertionOf(account, `${base}/token`, now() - 7200))).status).toBe(400);
	});

	it('answers the API with its access token only, for registered purchases, or fails as asked', async () => {
		const { body } = await token(assertionOf(account, `${base}/token`, now()));
		const accessToken = String(body.access_token);
		emulation.register({
			purchaseToken: 'tok_1',
			orderId: 'GPA.1',
			purchase: { orderId: 'GPA.1', obfuscatedExternalAccountId: 'u1' },
			order: { orderId: 'GPA.1', total: { currencyCode: 'USD', units: '5', nanos: 0 } },
		});
		emulation.register({
			purchaseToken: 'tok_2',
			orderId: 'GPA.2',
			order: { orderId: 'GPA.2' },
			failWith: 500,
		});
		expect((await api('purchases/products/pro/tokens/tok_1')).status).toBe(401);
		expect(await api('purchases/products/pro/tokens/tok_1', accessToken)).toMatchObject({
			status: 200,
			body: { obfuscatedExternalAccountId: 'u1' },
		});
		expect((await api('orders/GPA.1', accessToken)).body).toMatchObject({ total: { units: '5' } });
		expect((await api('purchases/subscriptionsv2/tokens/tok_unknown', accessToken)).status).toBe(
			404,
		);
		expect((await api('orders/GPA.2', accessToken)).status).toBe(500);
	});
});
