/**
 * `npm start` (scripts/start.js) claims the demo home and both ports before it changes anything
 * (support/n8n/demoClaim.js): a busy port, or another demo running on the same home, stops it at
 * once with the reason, before the build, and the home's files stay as they were. Real processes
 * and sockets on 127.0.0.1.
 */
import { scenario } from '../../support/scenarios';
import { PID_FILE } from '../../support/n8n/demoClaim';
import { answeringServer, demoHome, holdDemo, runScript } from '../../support/testing/runScript';

const SCRIPT = 'scripts/start.js';
/** Long enough for Node to start and stop, far shorter than the build that would come next. */
const AT_ONCE_MS = 10_000;

/** A port nothing listens on now: one a server had, closed. */
async function freedPort() {
	const server = await answeringServer(200);
	await server.close();
	return Number(new URL(server.url).port);
}

describe(scenario('tooling.npmStartClaim'), () => {
	let home: ReturnType<typeof demoHome>;
	beforeEach(() => (home = demoHome()));
	afterEach(() => home.remove());

	/** Runs npm start on the home; it must stop at once with exit 1, before the build's first step. */
	async function startStopped(env: Record<string, string>) {
		const before = home.files();
		const began = Date.now();
		const run = await runScript(SCRIPT, [], {
			env: { N8N_DEMO_FOLDER: home.home, ...env },
			timeoutMs: AT_ONCE_MS,
		});
		expect(Date.now() - began).toBeLessThan(AT_ONCE_MS);
		expect(run.code).toBe(1);
		expect(run.stdout).not.toContain('Building the package');
		expect(home.files()).toEqual(before);
		return run.stderr;
	}

	it.each(['N8N_PORT', 'SANDBOX_PORT'])(
		'a busy %s stops it, naming the port and the variable',
		async (busyName) => {
			const busy = await answeringServer(200);
			try {
				const busyPort = new URL(busy.url).port;
				const otherName = busyName === 'N8N_PORT' ? 'SANDBOX_PORT' : 'N8N_PORT';
				const stderr = await startStopped({
					[busyName]: busyPort,
					[otherName]: String(await freedPort()),
				});
				expect(stderr).toContain(
					`Port ${busyPort} (${busyName}) is in use on 127.0.0.1. Stop what uses it, or set ${busyName} to a free port.`,
				);
			} finally {
				await busy.close();
			}
		},
	);

	it('a demo running on the same home stops it, naming its PID, on its ports or on others', async () => {
		const ports = [
			{ name: 'N8N_PORT', port: await freedPort() },
			{ name: 'SANDBOX_PORT', port: await freedPort() },
		];
		const running = await holdDemo(home.home, ports);
		try {
			const samePorts = await startStopped({
				N8N_PORT: String(ports[0].port),
				SANDBOX_PORT: String(ports[1].port),
			});
			const otherPorts = await startStopped({
				N8N_PORT: String(await freedPort()),
				SANDBOX_PORT: String(await freedPort()),
			});
			for (const stderr of [samePorts, otherPorts])
				expect(stderr).toContain(
					`npm start is already running on ${home.home} (PID ${running.pid},`,
				);
		} finally {
			await running.stop();
		}
	});

	it('a demo that has stopped leaves the home free: its PID file is gone', async () => {
		const before = home.files();
		const running = await holdDemo(home.home, [{ name: 'N8N_PORT', port: await freedPort() }]);
		expect(Object.keys(home.files())).toContain(PID_FILE);
		await running.stop();
		expect(home.files()).toEqual(before);
	});
});
