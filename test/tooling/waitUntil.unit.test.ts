/**
 * support/services/processes.js's waitUntil, the one poll-until-ready loop of the end-to-end runs, the
 * services and the benchmarks: what it returns, when it gives up, and that it stops at once when
 * the process it waits for has exited.
 */
import { waitUntil } from '../../support/services/processes';
import { nodeChild } from '../../support/testing/nodeChild';
import { scenario } from '../../support/scenarios';

/** Quick tries of an answer that comes at once, and the waits for a server child. */
const quick = { timeoutMs: 5000, intervalMs: 1 };
const forServer = (child: ReturnType<typeof nodeChild>) => ({
	timeoutMs: 30_000,
	intervalMs: 10,
	child,
	what: 'the server',
});

describe(scenario('tooling.waitUntil'), () => {
	it('returns the first value that is not undefined, false or null, sync or async', async () => {
		const answers = [undefined, false, null, 0];
		let calls = 0;
		const value = await waitUntil(() => answers[calls++], { ...quick, what: 'an answer' });
		expect(value).toBe(0);
		expect(calls).toBe(4);

		await expect(waitUntil(async () => 'ready', { ...quick, what: 'ready' })).resolves.toBe(
			'ready',
		);
	});

	it('throws after timeoutMs, naming what it waited for and the detail', async () => {
		let calls = 0;
		const started = Date.now();
		await expect(
			waitUntil(() => (calls++, false), {
				timeoutMs: 200,
				intervalMs: 20,
				what: 'the port listening',
				detail: () => 'last answer: none',
			}),
		).rejects.toThrow('the port listening: not within 0.2 s\nlast answer: none');
		expect(Date.now() - started).toBeGreaterThanOrEqual(200);
		expect(calls).toBeGreaterThan(1);
	});

	it('throws at once when the child has exited, with its exit code', async () => {
		const child = nodeChild('process.exit(3)');
		const started = Date.now();
		await expect(waitUntil(() => false, forServer(child))).rejects.toThrow(
			'the server: the process exited with code 3 first',
		);
		expect(Date.now() - started).toBeLessThan(15_000);
		// Once it has exited, the next wait fails before the first try.
		const probe = jest.fn(() => false);
		await expect(waitUntil(probe, forServer(child))).rejects.toThrow('exited with code 3');
		expect(probe).not.toHaveBeenCalled();
	});

	it('names the signal when the child was killed (exitCode stays null)', async () => {
		const child = nodeChild('setInterval(() => {}, 1000)');
		const waiting = waitUntil(() => false, forServer(child));
		child.kill('SIGKILL');
		await expect(waiting).rejects.toThrow('the server: the process was ended by SIGKILL first');
	});

	it('passes on what the probe throws, without trying again', async () => {
		let calls = 0;
		await expect(
			waitUntil(
				() => {
					calls++;
					throw new Error('pg_isready could not run');
				},
				{ ...quick, what: 'postgres' },
			),
		).rejects.toThrow('pg_isready could not run');
		expect(calls).toBe(1);
	});
});
