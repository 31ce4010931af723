/**
 * `npm run send:webhook` (scripts/send-signed-webhook.js) against a local server: it sends a
 * signed Stripe `checkout.session.completed`, prints the answer and exits 0 on 2xx only; a closed
 * port names the refused address.
 */
import { answeringServer, runScript } from '../../support/testing/runScript';
import { scenario } from '../../support/scenarios';

const SCRIPT = 'scripts/send-signed-webhook.js';

describe(scenario('tooling.sendWebhook'), () => {
	it.each([
		[200, 0],
		[401, 1],
		[404, 1],
		[500, 1],
	])('an answer %i exits %i and is printed', async (status, exitCode) => {
		const { url, received, close } = await answeringServer(status);
		try {
			const run = await runScript(SCRIPT, [url, 'purchase', 'pi_script_1', 'buyer_1']);
			expect(run.code).toBe(exitCode);
			expect(run.stdout.trim()).toBe(`${status} {"answered":${status}}`);
			expect(received).toHaveLength(1);
			const event = JSON.parse(received[0].body);
			expect(event.type).toBe('checkout.session.completed');
			expect(event.data.object).toMatchObject({
				payment_intent: 'pi_script_1',
				metadata: { user_id: 'buyer_1' },
			});
			expect(received[0].headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}/);
		} finally {
			await close();
		}
	});

	it('--unsigned sends no signature', async () => {
		const { url, received, close } = await answeringServer(401);
		try {
			const run = await runScript(SCRIPT, [url, 'refund', 'pi_script_1', '--unsigned']);
			expect(run.code).toBe(1);
			expect(received[0].headers['stripe-signature']).toBeUndefined();
			expect(JSON.parse(received[0].body).type).toBe('charge.refunded');
		} finally {
			await close();
		}
	});

	it('a closed port exits 1 and names the refused address', async () => {
		const { url, close } = await answeringServer(200);
		await close();
		const port = new URL(url).port;
		const run = await runScript(SCRIPT, [url, 'purchase', 'pi_script_1']);
		expect(run.code).toBe(1);
		expect(run.stdout).toBe('');
		expect(run.stderr.trim()).toBe(`No answer from ${url}: ECONNREFUSED 127.0.0.1:${port}`);
	});
});
