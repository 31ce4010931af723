/**
 * The learned clock skew on an injected clock: what a rejected timestamp's Date header teaches,
 * per service, and that a skew is forgotten once it has aged.
 */
import { CLOCK_SKEW_MAX_AGE_MS, ClockSkew } from '../../nodes/shared/transport/clockSkew';
import { scenario } from '../../support/scenarios';

const SERVICE = 'https://api.example.com';
const START_MS = 1_767_225_600_000;

function clockAt(startMs: number) {
	const clock = { nowMs: startMs };
	return { clock, skew: new ClockSkew(() => clock.nowMs) };
}

/** The Date header of a service whose clock is `aheadS` seconds ahead of `nowMs`. */
const dateHeader = (nowMs: number, aheadS: number) => new Date(nowMs + aheadS * 1000).toUTCString();

describe(scenario('transport.clockSkewMemory'), () => {
	it('signs with the local time until a skew is learned, then with the service time', () => {
		const { skew } = clockAt(START_MS);
		expect(skew.signingTime(SERVICE)).toEqual({ timestamp: String(START_MS / 1000), skew: 0 });
		expect(skew.learn(SERVICE, 0, dateHeader(START_MS, 600))).toBe('new');
		expect(skew.signingTime(SERVICE)).toEqual({
			timestamp: String(START_MS / 1000 + 600),
			skew: 600,
		});
		expect(skew.secondsFor('https://other.example.com')).toBe(0);
	});

	it('learns nothing from a missing or unreadable Date header, or one that agrees', () => {
		const { skew } = clockAt(START_MS);
		expect(skew.learn(SERVICE, 0, undefined)).toBe('none');
		expect(skew.learn(SERVICE, 0, 'not a date')).toBe('none');
		expect(skew.learn(SERVICE, -300, dateHeader(START_MS, -300))).toBe('none');
		expect(skew.secondsFor(SERVICE)).toBe(0);
	});

	it('a skew another request learned already is not news', () => {
		const { skew } = clockAt(START_MS);
		expect(skew.learn(SERVICE, 0, dateHeader(START_MS, -900))).toBe('new');
		expect(skew.learn(SERVICE, 0, dateHeader(START_MS, -900))).toBe('known');
		expect(skew.learn(SERVICE, -900, dateHeader(START_MS, -1200))).toBe('new');
		expect(skew.secondsFor(SERVICE)).toBe(-1200);
	});

	it(`is forgotten ${CLOCK_SKEW_MAX_AGE_MS / 60_000} minutes after it was learned, and learned anew`, () => {
		const { clock, skew } = clockAt(START_MS);
		skew.learn(SERVICE, 0, dateHeader(START_MS, 600));
		clock.nowMs = START_MS + CLOCK_SKEW_MAX_AGE_MS - 1000;
		expect(skew.secondsFor(SERVICE)).toBe(600);
		clock.nowMs = START_MS + CLOCK_SKEW_MAX_AGE_MS;
		expect(skew.signingTime(SERVICE)).toEqual({ timestamp: String(clock.nowMs / 1000), skew: 0 });
		// The same skew again is news once more: its hint is shown again.
		expect(skew.learn(SERVICE, 0, dateHeader(clock.nowMs, 600))).toBe('new');
		clock.nowMs += CLOCK_SKEW_MAX_AGE_MS - 1000;
		expect(skew.secondsFor(SERVICE)).toBe(600);
	});
});
