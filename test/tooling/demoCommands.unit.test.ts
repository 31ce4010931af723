/**
 * The demo commands: the README prints what `npm start` prints for its default ports
 * (support/n8n/n8nDemoData.js's demoCommands), and stays short enough to read.
 */
import { demoCommands, demoCommandsText } from '../../support/n8n/n8nDemoData';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

const README = readRepoFile('README.md');
// npm start's defaults: N8N_PORT 5678, SANDBOX_PORT 8787, the first start of its user folder.
const DEFAULTS = { n8nUrl: 'http://127.0.0.1:5678', sandboxUrl: 'http://127.0.0.1:8787' };

describe(scenario('tooling.demoCommands'), () => {
	it("the README's block is demoCommands for npm start's default ports", () => {
		expect(README).toContain(`\`\`\`bash\n${demoCommandsText(demoCommands(DEFAULTS))}\n\`\`\``);
	});

	it('the README prints no send:webhook command beside them', () => {
		const printed = new Set(demoCommands(DEFAULTS).map(({ command }) => command));
		const inReadme = README.split('\n').filter((line) => line.startsWith('npm run send:webhook'));
		expect(inReadme.length).toBeGreaterThan(0);
		expect(inReadme.filter((line) => !printed.has(line))).toEqual([]);
	});

	it('a later start sends a new transaction, its purchase and refund alike', () => {
		const later = demoCommands({ ...DEFAULTS, start: 3 });
		expect(later.filter(({ command }) => command.includes(' pi_demo_3 '))).toHaveLength(3);
		expect(later.some(({ command }) => command.includes('pi_demo_1'))).toBe(false);
	});

	it('the README has at most 220 lines, at most 10 of them over 100 characters', () => {
		const lines = README.trimEnd().split('\n');
		expect(lines.length).toBeLessThanOrEqual(220);
		expect(lines.filter((line) => Buffer.byteLength(line) > 100).length).toBeLessThanOrEqual(10);
	});
});
