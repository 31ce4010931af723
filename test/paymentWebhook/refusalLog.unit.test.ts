/**
 * How often the Payment Webhook Trigger logs refusals (nodes/PaymentWebhookTrigger/refusalLog.ts),
 * on an injected clock: the first refusal of a workflow at once, then one line a minute at most,
 * counting the refusals since the last line; each workflow apart.
 */
import { REFUSAL_LOG_INTERVAL_MS, RefusalLog } from '../../nodes/PaymentWebhookTrigger/refusalLog';
import { scenario } from '../../support/scenarios';

describe(scenario('paymentWebhook.refusalLog'), () => {
	it('logs the first refusal, holds the next ones for a minute, then counts them', () => {
		const log = new RefusalLog();
		const minute = REFUSAL_LOG_INTERVAL_MS;
		// After a quiet spell, the next refusal is logged at once with the one held back.
		const at = [0, 1, minute - 1, minute, minute + 1, 10 * minute, 12 * minute];
		expect(at.map((ms) => log.record('wf', ms))).toEqual([1, null, null, 3, null, 2, 1]);
	});

	it('keeps each workflow apart', () => {
		const log = new RefusalLog();
		expect(log.record('a', 0)).toBe(1);
		expect(log.record('b', 10)).toBe(1);
		expect(log.record('a', 20)).toBeNull();
		expect(log.record('b', 30)).toBeNull();
	});

	it('never writes more than one line a minute, however many refusals', () => {
		const log = new RefusalLog();
		let lines = 0;
		let counted = 0;
		for (let at = 0; at < 10 * REFUSAL_LOG_INTERVAL_MS; at += 250) {
			const refusals = log.record('flood', at);
			if (refusals !== null) {
				lines++;
				counted += refusals;
			}
		}
		expect(lines).toBe(10);
		// Every refusal but those held since the last line is counted in some line.
		expect(counted).toBe(
			10 * (REFUSAL_LOG_INTERVAL_MS / 250) - (REFUSAL_LOG_INTERVAL_MS / 250 - 1),
		);
	});
});
