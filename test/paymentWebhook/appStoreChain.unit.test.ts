/**
 * The App Store's signed data checked offline (providers/appStore/appleJws.ts, der.ts,
 * notification.ts) against Apple's own code: the pinned root is Apple Root CA - G3; Apple's real
 * signing chain (the certificates in @apple/app-store-server-library's own tests) passes the chain
 * checks; the marker extensions are found by a DER walk; and every notification the test signer
 * (support/payment/appStoreChain.js) makes gets the same verdict from Apple's
 * SignedDataVerifier as from the trigger's check.
 */
// @peculiar/x509's dependency injection needs the metadata polyfill before it loads.
import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';

import { Environment, SignedDataVerifier } from '@apple/app-store-server-library';
import * as x509 from '@peculiar/x509';

import {
	chainProblem,
	INTERMEDIATE_MARKER_OID,
	LEAF_MARKER_OID,
} from '../../nodes/PaymentWebhookTrigger/providers/appStore/appleJws';
import { APPLE_ROOT_CA_G3_PEM } from '../../nodes/PaymentWebhookTrigger/providers/appStore/appleRootCaG3';
import {
	hasExtension,
	oidContents,
} from '../../nodes/PaymentWebhookTrigger/providers/appStore/der';
import {
	checkNotification,
	trustedRoot,
	type AppStoreSettings,
} from '../../nodes/PaymentWebhookTrigger/providers/appStore/notification';
import * as samplesModule from '../../nodes/PaymentWebhookTrigger/providers/appStore/samples';
import {
	createTestChain,
	notificationBody,
	signJws,
	type TestChain,
} from '../../support/payment/appStoreChain';
import { scenario } from '../../support/scenarios';
import { readRepoFile } from '../../support/testing/repoFile';

const APPLE_ROOT_FINGERPRINT =
	'63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79';
const { notifications: samples, appAppleId: APP_APPLE_ID } = samplesModule;
const SETTINGS: AppStoreSettings = {
	bundleId: samplesModule.bundleId,
	environment: samplesModule.environment,
};

/** A certificate of Apple's library's own tests, by the name its test file gives it. */
function appleTestCertificate(name: string): X509Certificate {
	const file = readRepoFile(
		'node_modules/@apple/app-store-server-library/dist/tests/unit-tests/jws_verification.test.js',
	);
	const found = new RegExp(`const ${name} = "([A-Za-z0-9+/=]+)"`).exec(file);
	if (found === null) throw new Error(`${name} is not in Apple's test file`);
	return new X509Certificate(Buffer.from(found[1], 'base64'));
}

describe(scenario('paymentWebhook.appStore.pinnedRoot'), () => {
	const pinned = new X509Certificate(APPLE_ROOT_CA_G3_PEM);
	const realLeaf = appleTestCertificate('REAL_APPLE_SIGNING_CERTIFICATE_BASE64_ENCODED');
	const realIntermediate = appleTestCertificate('REAL_APPLE_INTERMEDIATE_BASE64_ENCODED');
	const realRoot = appleTestCertificate('REAL_APPLE_ROOT_BASE64_ENCODED');
	const realChain = [realLeaf, realIntermediate, realRoot];
	// The date Apple's test checks its real chain at (October 2025).
	const appleEffectiveDate = 1761962975000;

	it('pins Apple Root CA - G3 by its published SHA-256 fingerprint, as the default root', () => {
		expect(pinned.fingerprint256).toBe(APPLE_ROOT_FINGERPRINT);
		expect(pinned.subject).toContain('CN=Apple Root CA - G3');
		expect(trustedRoot('')?.raw.equals(pinned.raw)).toBe(true);
		expect(realRoot.raw.equals(pinned.raw)).toBe(true);
	});

	it("accepts Apple's real signing chain at a date it is valid, and not after the leaf expires", () => {
		expect(chainProblem(realChain, pinned, appleEffectiveDate)).toBeNull();
		const afterLeafExpiry = Date.parse(realLeaf.validTo) + 1000;
		expect(chainProblem(realChain, pinned, afterLeafExpiry)).toBe(
			'the leaf certificate is not valid at the signing date',
		);
	});

	it("refuses Apple's real chain in the wrong order or under another root", async () => {
		const other = await createTestChain();
		expect(chainProblem([realIntermediate, realLeaf, realRoot], pinned, appleEffectiveDate)).toBe(
			'the intermediate certificate is not issued by the root',
		);
		expect(chainProblem(realChain, new X509Certificate(other.rootPem), appleEffectiveDate)).toBe(
			'the x5c chain does not end at the trusted root',
		);
	});
});

describe(scenario('paymentWebhook.appStore.derExtensions'), () => {
	it('encodes object identifiers as DER does', () => {
		expect(oidContents(LEAF_MARKER_OID).toString('hex')).toBe('2a864886f76364060b01');
		expect(oidContents(INTERMEDIATE_MARKER_OID).toString('hex')).toBe('2a864886f76364060201');
		expect(oidContents('2.5.29.19').toString('hex')).toBe('551d13');
	});

	it("finds each of Apple's markers on Apple's real certificates only where Apple put it", () => {
		const leaf = appleTestCertificate('REAL_APPLE_SIGNING_CERTIFICATE_BASE64_ENCODED').raw;
		const intermediate = appleTestCertificate('REAL_APPLE_INTERMEDIATE_BASE64_ENCODED').raw;
		expect(hasExtension(leaf, LEAF_MARKER_OID)).toBe(true);
		expect(hasExtension(leaf, INTERMEDIATE_MARKER_OID)).toBe(false);
		expect(hasExtension(intermediate, INTERMEDIATE_MARKER_OID)).toBe(true);
		expect(hasExtension(intermediate, LEAF_MARKER_OID)).toBe(false);
		// Apple's own test certificates with a wrong marker.
		for (const name of [
			'LEAF_CERT_INVALID_OID_BASE64_ENCODED',
			'INTERMEDIATE_CA_INVALID_OID_BASE64_ENCODED',
		]) {
			const raw = appleTestCertificate(name).raw;
			expect([
				hasExtension(raw, LEAF_MARKER_OID),
				hasExtension(raw, INTERMEDIATE_MARKER_OID),
			]).toEqual([false, false]);
		}
	});

	it("does not take the marker's bytes inside another extension's value for the marker", async () => {
		const keys = await x509.cryptoProvider
			.get()
			.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
		const marker = oidContents(LEAF_MARKER_OID);
		// The marker as a whole DER object identifier (tag, length, contents), inside a value.
		const markerInside = Buffer.concat([Buffer.from([0x06, marker.length]), marker]);
		const certificate = await x509.X509CertificateGenerator.createSelfSigned({
			name: 'CN=Marker inside a value',
			keys,
			extensions: [new x509.Extension('1.3.6.1.4.1.99999.1', false, markerInside)],
		});
		const raw = Buffer.from(certificate.rawData);
		expect(raw.includes(markerInside)).toBe(true);
		expect(hasExtension(raw, LEAF_MARKER_OID)).toBe(false);
		expect(hasExtension(raw, '1.3.6.1.4.1.99999.1')).toBe(true);
	});

	it('answers no for what is not DER: truncated, indefinite length, a length not minimal', () => {
		const leaf = appleTestCertificate('REAL_APPLE_SIGNING_CERTIFICATE_BASE64_ENCODED').raw;
		expect(hasExtension(leaf.subarray(0, leaf.length - 1), LEAF_MARKER_OID)).toBe(false);
		const indefinite = Buffer.from(leaf);
		indefinite[1] = 0x80;
		expect(hasExtension(indefinite, LEAF_MARKER_OID)).toBe(false);
		// 0x30 0x82 <2 bytes>: the same length written with a leading zero byte is not DER.
		const padded = Buffer.concat([Buffer.from([0x30, 0x83, 0x00]), leaf.subarray(2)]);
		expect(hasExtension(padded, LEAF_MARKER_OID)).toBe(false);
	});
});

/** Apple's verdict on a body: 'accepted', or the VerificationStatus of the first refusal. */
async function appleVerdict(
	chain: TestChain | { rootDer: Buffer },
	body: string,
	settings: AppStoreSettings,
): Promise<string> {
	const environment =
		settings.environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX;
	const verifier = new SignedDataVerifier(
		[chain.rootDer],
		false,
		environment,
		settings.bundleId,
		APP_APPLE_ID,
	);
	try {
		const notification = await verifier.verifyAndDecodeNotification(JSON.parse(body).signedPayload);
		if (notification.data?.signedTransactionInfo !== undefined) {
			await verifier.verifyAndDecodeTransaction(notification.data.signedTransactionInfo);
		}
		if (notification.data?.signedRenewalInfo !== undefined) {
			await verifier.verifyAndDecodeRenewalInfo(notification.data.signedRenewalInfo);
		}
		return 'accepted';
	} catch (error) {
		return `refused (status ${(error as { status: number }).status})`;
	}
}

/** The trigger's verdict on the same body. */
function ourVerdict(rootPem: string, body: string, settings: AppStoreSettings) {
	const root = trustedRoot(rootPem);
	if (root === null) throw new Error('the test root does not parse');
	return checkNotification(Buffer.from(body), root, settings);
}

/** A JWS with its payload replaced, header and signature kept. */
function withPayload(jws: string, change: (payload: Record<string, unknown>) => void): string {
	const [header, payload, signature] = jws.split('.');
	const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
	change(decoded);
	return [header, Buffer.from(JSON.stringify(decoded)).toString('base64url'), signature].join('.');
}

describe(scenario('paymentWebhook.appStore.appleParity'), () => {
	let good: TestChain;
	const chains: Record<string, TestChain> = {};
	const year2021 = {
		notBefore: new Date('2020-01-01T00:00:00Z'),
		notAfter: new Date('2021-01-01T00:00:00Z'),
	};

	beforeAll(async () => {
		good = await createTestChain();
		chains.otherRoot = await createTestChain({ rootName: 'Another Test Root' });
		chains.expiredLeaf = await createTestChain({ leafValidity: year2021 });
		chains.noLeafMarker = await createTestChain({ leafMarker: false });
		chains.noIntermediateMarker = await createTestChain({ intermediateMarker: false });
	});

	it('accepts what Apple accepts: every sample, a purchase, a subscription with renewal info, a refund', async () => {
		for (const sample of Object.values(samples)) {
			const body = notificationBody(good, sample);
			expect(await appleVerdict(good, body, SETTINGS)).toBe('accepted');
			const verdict = ourVerdict(good.rootPem, body, SETTINGS);
			expect(verdict).toMatchObject({ valid: true });
		}
	});

	it('signs at the payload signing date: an expired leaf is fine for an old notification', async () => {
		const body = notificationBody(chains.expiredLeaf, {
			...samples.oneTimeCharge,
			signedDate: Date.parse('2020-06-01T00:00:00Z'),
		});
		const chain = chains.expiredLeaf;
		expect(await appleVerdict(chain, body, SETTINGS)).toBe('accepted');
		expect(ourVerdict(chain.rootPem, body, SETTINGS)).toMatchObject({ valid: true });
	});

	/**
	 * Each kind Apple refuses: the chain that signs, the root trusted (the signer's own unless
	 * said), the body, the settings, the trigger's reason.
	 */
	const refusals: Array<{
		kind: string;
		signer: () => TestChain;
		trusted?: () => TestChain;
		body: (signer: TestChain) => string;
		settings?: AppStoreSettings;
		reason: string;
	}> = [
		{
			kind: 'a chain under another root',
			signer: () => chains.otherRoot,
			trusted: () => good,
			body: (signer) => notificationBody(signer, samples.oneTimeCharge),
			reason: 'signedPayload: the x5c chain does not end at the trusted root',
		},
		{
			kind: 'a leaf expired at the signing date',
			signer: () => chains.expiredLeaf,
			body: (signer) => notificationBody(signer, samples.oneTimeCharge),
			reason: 'signedPayload: the leaf certificate is not valid at the signing date',
		},
		{
			kind: "a leaf without Apple's marker",
			signer: () => chains.noLeafMarker,
			body: (signer) => notificationBody(signer, samples.oneTimeCharge),
			reason: `signedPayload: the leaf certificate lacks Apple's marker ${LEAF_MARKER_OID}`,
		},
		{
			kind: "an intermediate without Apple's marker",
			signer: () => chains.noIntermediateMarker,
			body: (signer) => notificationBody(signer, samples.oneTimeCharge),
			reason: `signedPayload: the intermediate certificate lacks Apple's marker ${INTERMEDIATE_MARKER_OID}`,
		},
		{
			kind: 'a tampered notification payload',
			signer: () => good,
			body: (signer) => {
				const { signedPayload } = JSON.parse(notificationBody(signer, samples.oneTimeCharge));
				const forged = withPayload(signedPayload, (payload) => {
					payload.notificationType = 'REFUND';
				});
				return JSON.stringify({ signedPayload: forged });
			},
			reason: "signedPayload: the signature does not verify with the leaf certificate's key",
		},
		{
			kind: 'a tampered transaction inside a well-signed notification',
			signer: () => good,
			body: (signer) => {
				const { signedPayload } = JSON.parse(notificationBody(signer, samples.oneTimeCharge));
				const notification = JSON.parse(
					Buffer.from(signedPayload.split('.')[1], 'base64url').toString(),
				);
				notification.data.signedTransactionInfo = withPayload(
					notification.data.signedTransactionInfo,
					(transaction) => {
						transaction.price = 999990;
					},
				);
				return JSON.stringify({ signedPayload: signJws(signer, notification) });
			},
			reason:
				"signedTransactionInfo: the signature does not verify with the leaf certificate's key",
		},
		{
			kind: 'another app (bundle ID)',
			signer: () => good,
			body: (signer) => notificationBody(signer, samples.oneTimeCharge),
			settings: { ...SETTINGS, bundleId: 'com.example.another' },
			reason: 'the notification is for another app than bundle ID com.example.another',
		},
		{
			kind: 'the other environment',
			signer: () => good,
			body: (signer) => notificationBody(signer, samples.oneTimeCharge),
			settings: { ...SETTINGS, environment: 'Production' },
			reason: 'the notification is for another environment than Production',
		},
	];

	it.each(refusals)(
		'refuses what Apple refuses: $kind',
		async ({ signer, trusted, body, settings, reason }) => {
			const signed = body(signer());
			const root = (trusted ?? signer)();
			const config = settings ?? SETTINGS;
			expect(await appleVerdict(root, signed, config)).toMatch(/^refused/);
			expect(ourVerdict(root.rootPem, signed, config)).toEqual({ valid: false, reason });
		},
	);

	it("refuses the test chain under Apple's own root, the default, as Apple's library does", async () => {
		const body = notificationBody(good, samples.oneTimeCharge);
		const apple = { rootDer: new X509Certificate(APPLE_ROOT_CA_G3_PEM).raw };
		expect(await appleVerdict(apple, body, SETTINGS)).toMatch(/^refused/);
		expect(ourVerdict('', body, SETTINGS)).toEqual({
			valid: false,
			reason: 'signedPayload: the x5c chain does not end at the trusted root',
		});
	});
});
