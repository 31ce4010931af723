/**
 * The roots a credential may not trust: the test roots this repository published with their
 * private keys (by fingerprint, in every environment), and any root that replaces Apple's for
 * Production notifications. Refused, not only warned about: a workflow already active when its
 * credential is edited never sees the warning. Then a root that replaces Apple's where it is
 * allowed (tests, Sandbox): named by the credential test, at activation and on each item.
 */
import { X509Certificate } from 'node:crypto';

import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import { appStore } from '../../nodes/PaymentWebhookTrigger/providers/appStore/appStore';
import { APPLE_ROOT_CA_G3_PEM } from '../../nodes/PaymentWebhookTrigger/providers/appStore/appleRootCaG3';
import {
	PUBLISHED_TEST_ROOTS,
	rootProblem,
} from '../../nodes/PaymentWebhookTrigger/providers/appStore/notification';
import * as samples from '../../nodes/PaymentWebhookTrigger/providers/appStore/samples';
import {
	createTestChain,
	notificationBody,
	type TestChain,
} from '../../support/payment/appStoreChain';
import { activateTrigger } from '../../support/fakes/fakeWebhookContext';
import { withSigningSecret } from '../../support/payment/paymentSignatures';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';
import { deliverToAppStoreTrigger } from './appStoreHarness';

/** The two roots of support/payment/appStoreTestChains.json as it was published (no keys). */
const PUBLISHED = Object.values(
	JSON.parse(readRepoFile('support/fixtures/appStorePublishedRoots.json')) as Record<
		string,
		string
	>,
);

let chain: TestChain;
beforeAll(async () => {
	chain = await createTestChain();
});

/** appStore.verify of a signed one-time charge under `rootCa`, for `environment`. */
const verifyUnder = (rootCa: string, environment: string) =>
	appStore.verify({
		rawBody: Buffer.from(notificationBody(chain, samples.notifications.oneTimeCharge)),
		headers: {},
		secrets: { ...withSigningSecret(''), rootCa },
		settings: { bundleId: samples.bundleId, environment },
		toleranceSeconds: 300,
		nowSeconds: Math.floor(Date.now() / 1000),
	});

describe(scenario('paymentWebhook.appStore.refusedRoots'), () => {
	it('lists exactly the fingerprints of the published test roots', () => {
		expect(PUBLISHED.map((pem) => new X509Certificate(pem).fingerprint256).sort()).toEqual(
			[...PUBLISHED_TEST_ROOTS].sort(),
		);
	});

	it('refuses a published test root in the credential test and at each delivery, in any environment', () => {
		for (const rootCa of PUBLISHED) {
			const { fingerprint256 } = new X509Certificate(rootCa);
			const problem = appStore.secretProblem({ ...withSigningSecret(''), rootCa });
			expect(problem).toBe(
				`The Root Certificate (SHA-256 ${fingerprint256}) is a test root this package's repository published with its private key: anyone can sign under it. Leave the field empty to trust Apple Root CA - G3`,
			);
			for (const environment of ['Sandbox', 'Production'])
				expect(verifyUnder(rootCa, environment)).toEqual({
					valid: false,
					reason: problem,
					unusableSecret: true,
				});
		}
	});

	it('refuses any replaced root for Production notifications, and takes a fresh one for Sandbox', () => {
		expect(verifyUnder(chain.rootPem, 'Production')).toEqual({
			valid: false,
			reason:
				'The Root Certificate replaces Apple Root CA - G3, which is for tests only: it is refused with Environment Production. Leave the field empty, or pick Environment Sandbox for tests',
			unusableSecret: true,
		});
		expect(samples.environment).toBe('Sandbox');
		expect(verifyUnder(chain.rootPem, 'Sandbox')).toMatchObject({ valid: true });
		// The credential test knows no environment: a fresh root passes it, named as replaced.
		expect(appStore.secretProblem({ ...withSigningSecret(''), rootCa: chain.rootPem })).toBeNull();
	});

	it('leaves Apple’s own root, and none, alone', () => {
		expect(rootProblem('', 'Production')).toBeNull();
		const apple = appStore.secretProblem({ ...withSigningSecret(''), rootCa: '' });
		expect(apple).toBeNull();
	});
});

describe(scenario('paymentWebhook.appStore.replacedRoot'), () => {
	const trigger = new PaymentWebhookTrigger();
	const rootOf = (pem: string) => new X509Certificate(pem);

	/** The trigger's credential test on a credential holding only `rootCa`, as n8n calls it. */
	const credentialTest = async (rootCa: string, signingSecret = '') =>
		await trigger.methods.credentialTest.signingSecretFormat.call(
			{} as never,
			{
				id: 'c',
				name: 'c',
				type: 'paymentWebhookSigningApi',
				data: { signingSecret, rootCa },
			} as never,
		);

	/** n8n's activation of a trigger for `provider` whose credential holds `rootCa`. */
	const activate = async (rootCa: string, provider = 'appStore') =>
		await activateTrigger(provider, 'App Store purchases', {
			paymentWebhookSigningApi: { signingSecret: '', rootCa },
		});

	/** The trigger's answer to a signed one-time charge, its credential holding `rootCa`. */
	const deliverUnder = async (rootCa: string) =>
		(
			await deliverToAppStoreTrigger(
				notificationBody(chain, samples.notifications.oneTimeCharge),
				rootCa,
			)
		).result;

	it('names the credential root by subject and SHA-256 fingerprint; none for Apple’s own or an empty one', () => {
		const root = rootOf(chain.rootPem);
		expect(appStore.replacedRoot?.({ ...withSigningSecret(''), rootCa: chain.rootPem })).toEqual({
			pinned: 'Apple Root CA - G3',
			subject: root.subject.split('\n').join(', '),
			fingerprint256: root.fingerprint256,
		});
		expect(root.subject).toContain('CN=Affiliate Tracking Test Root CA - G3');
		for (const rootCa of ['', APPLE_ROOT_CA_G3_PEM, 'not a certificate']) {
			expect(appStore.replacedRoot?.({ ...withSigningSecret(''), rootCa })).toBeNull();
		}
	});

	it('the credential test answers with the root’s subject and fingerprint whenever it is set', async () => {
		const { fingerprint256 } = rootOf(chain.rootPem);
		const note = `Note: its Root Certificate replaces Apple Root CA - G3, for tests only: deliveries signed under "CN=Affiliate Tracking Test Root CA - G3, O=Test, C=US" (SHA-256 ${fingerprint256}) are taken as genuine.`;
		await expect(credentialTest(chain.rootPem)).resolves.toEqual({
			status: 'OK',
			message: `The credential is well formed for Apple App Store, Google Play. ${note} It is checked against each delivery's signature; no provider is contacted.`,
		});
		// Set beside another provider's secret, it is named all the same.
		const withSecret = await credentialTest(chain.rootPem, 'whsec_abc');
		expect(withSecret.message).toContain(note);
		// Apple's own root, pasted, replaces nothing.
		await expect(credentialTest(APPLE_ROOT_CA_G3_PEM)).resolves.toEqual({
			status: 'OK',
			message:
				"The credential is well formed for Apple App Store, Google Play. It is checked against each delivery's signature; no provider is contacted.",
		});
	});

	it('warns once in n8n’s log at activation under a replaced root, never otherwise', async () => {
		const logged = await activate(chain.rootPem);
		expect(logged).toHaveLength(1);
		expect(logged[0].message).toBe(
			`Payment Webhook Trigger "App Store purchases" (Apple App Store): its Root Certificate replaces Apple Root CA - G3, for tests only: deliveries signed under "CN=Affiliate Tracking Test Root CA - G3, O=Test, C=US" (SHA-256 ${rootOf(chain.rootPem).fingerprint256}) are taken as genuine. Each item it emits carries pinnedRootReplaced: true.`,
		);
		expect(logged[0].meta).toEqual({
			workflowId: 'wf-appStore',
			node: 'App Store purchases',
			provider: 'appStore',
		});
		await expect(activate('')).resolves.toEqual([]);
		await expect(activate(APPLE_ROOT_CA_G3_PEM)).resolves.toEqual([]);
		// Another provider's trigger reads no root.
		await expect(activate(chain.rootPem, 'stripe')).resolves.toEqual([]);
	});

	it('flags each item emitted under a root that is not Apple’s', async () => {
		const flagged = await deliverUnder(chain.rootPem);
		expect(flagged).toMatchObject({
			workflowData: [[{ json: { kind: 'purchase', pinnedRootReplaced: true } }]],
		});
		// Under Apple's root the test chain is refused: no item, so no unflagged one to compare. The
		// flag is absent from items of every other provider (webhook.unit.test.ts's exact items).
		const refused = await deliverUnder(APPLE_ROOT_CA_G3_PEM);
		expect(refused).toEqual({ noWebhookResponse: true });
	});
});
