// @ts-check
'use strict';
/**
 * A benchmark's settings from the environment, each with its default in one place:
 * `benchSettings('BENCH_FLOOD_', { ROUNDS: 3 })` reads BENCH_FLOOD_ROUNDS, or gives 3 when it is
 * not set. The default's type is the value's: a number, a list (comma-separated: `1000,10000`, of
 * numbers where the default's are) or a string. Each benchmark's header lists its variables.
 */

/**
 * @template {Record<string, number | number[] | string[] | string>} T
 * @param {string} prefix @param {T} defaults
 * @returns {T}
 */
function benchSettings(prefix, defaults) {
	/** @type {Record<string, unknown>} */
	const settings = {};
	for (const [name, fallback] of Object.entries(defaults)) {
		const text = process.env[prefix + name];
		if (text === undefined) settings[name] = fallback;
		else if (typeof fallback === 'number') settings[name] = Number(text);
		else if (Array.isArray(fallback))
			settings[name] = text
				.split(',')
				.map((part) => (typeof fallback[0] === 'number' ? Number(part) : part));
		else settings[name] = text;
	}
	return /** @type {T} */ (settings);
}

module.exports = { benchSettings };
