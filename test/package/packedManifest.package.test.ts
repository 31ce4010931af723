/**
 * What `npm pack` makes is what users install: its manifest carries no development-only
 * dependency (the development Node 24 lives in the tools/node24 workspace, which `npm pack`
 * leaves out), so that installing the tarball adds this one package and nothing else.
 */
import { packAndInstall } from '../../support/n8n/installIntoApp';
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
});
