/** The install heartbeat's line (support/services/processes.js): time that moves and bytes that move. */
import { bytesProgress, formatBytes, heartbeatLine } from '../../support/services/processes';
import { scenario } from '../../support/scenarios';

describe(scenario('tooling.heartbeat'), () => {
	it.each([
		[4_400, '  … 4 s, x'],
		[59_600, '  … 1 min 0 s, x'],
		[140_400, '  … 2 min 20 s, x'],
		[3_725_000, '  … 62 min 5 s, x'],
	])('after %i ms: %s', (elapsedMs, line) => {
		expect(heartbeatLine(elapsedMs, 'x')).toBe(line);
	});

	it.each([
		[0, '0 MB'],
		[812_400_000, '812 MB'],
		[999_400_000, '999 MB'],
		[1_420_000_000, '1.42 GB'],
		[2_125_869_124, '2.13 GB'],
	])('%i bytes read %s', (bytes, text) => {
		expect(formatBytes(bytes)).toBe(text);
	});

	it('gives the total and what moved since the previous line', () => {
		expect(bytesProgress(1_420_000_000, 1_240_000_000)).toBe(
			'1.42 GB written (+180 MB since the last line)',
		);
		// Another process freeing space on the same disk must not show as a negative growth.
		expect(bytesProgress(1_000_000_000, 1_100_000_000)).toBe(
			'1.00 GB written (+0 MB since the last line)',
		);
	});
});
