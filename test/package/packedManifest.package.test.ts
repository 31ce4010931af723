/**
 * What `npm pack` makes is what users install: its manifest carries no development-only
 * dependency (the development Node 24 lives in the tools/node24 workspace, which `npm pack`
 * leaves out), so that installing the tarball adds this one package and nothing else; and it
 * holds no build cache (TypeScript's tsbuildinfo, a third of the unpacked package once), nor the
 * private keys of the App Store test chains (support/payment/appStoreChain.js makes them outside
 * the repository): with a chain's root in a credential, its leaf key signs a notification the
 * trigger accepts.
 */
import { packAndInstall } from '../../support/n8n/installIntoApp';
import { packedFiles } from '../../support/n8n/pack';
import { storedChains } from '../../support/payment/appStoreChain';
import { scenario } from '../../support/scenarios';

declare const PACKAGE_DIR: string;

describe(scenario('package.tarball'), () => {
	let packed: ReturnType<typeof packAndInstall>;

	beforeAll(() => {
		packed = packAndInstall(PACKAGE_DIR);
	});

	afterAll(() => packed.remove());

	it('has no dependencies a user would install: no dependencies, no optional ones', () => {
		expect(packed.manifest.dependencies).toBeUndefined();
		expect(packed.manifest.optionalDependencies).toBeUndefined();
		expect(packed.manifest.bundleDependencies).toBeUndefined();
		// The peer n8n lends its own copy of; npm must not install it beside the package.
		expect(packed.manifest.peerDependenciesMeta).toEqual({ 'n8n-workflow': { optional: true } });
	});

	it('installs as one package into an app', () => {
		expect(packed.installed).toEqual([packed.manifest.name]);
	});

	it('holds the built code and no build cache', () => {
		const files = packedFiles(PACKAGE_DIR);
		expect(files).toContain('dist/index.js');
		expect(files.filter((file) => file.endsWith('.tsbuildinfo'))).toEqual([]);
	});

	it('holds no private key of the App Store test chains, in PEM or JWK, nor their file', () => {
		const secrets = Object.values(storedChains()).flatMap(({ leafKey }) => {
			const leafKeyPem = String(leafKey.export({ type: 'pkcs8', format: 'pem' }));
			const jwk = leafKey.export({ format: 'jwk' });
			return [
				leafKeyPem.replace(/-----[A-Z ]+-----|\s/g, ''),
				// Each line of the PEM, in case it were stored with other line breaks.
				...leafKeyPem.split('\n').filter((line) => line.length >= 40),
				String(jwk.d),
			];
		});
		expect(secrets.length).toBeGreaterThanOrEqual(2 * 3);
		const texts = packed.texts();
		expect(texts.length).toBeGreaterThan(10);
		expect(
			texts.map(({ file }) => file).filter((file) => /app-?store-?test-?chains/i.test(file)),
		).toEqual([]);
		const leaks = texts.flatMap(({ file, text }) =>
			secrets.filter((secret) => text.includes(secret)).map(() => file),
		);
		expect(leaks).toEqual([]);
	});
});
