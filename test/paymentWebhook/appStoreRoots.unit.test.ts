/**
 * The roots a credential may not trust: the test roots this repository published with their
 * private keys (by fingerprint, in every environment), and any root that replaces Apple's for
 * Production notifications. Refused, not only warned about: a workflow already active when its
 * credential is edited never sees the warning.
 */
import { X509Certificate } from 'node:crypto';

import { appStore } from '../../nodes/PaymentWebhookTrigger/providers/appStore/appStore';
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
import { withSigningSecret } from '../../support/payment/paymentSignatures';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

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
