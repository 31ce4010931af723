/**
 * The part of semver (a devDependency, which ships no types) that support/n8n/n8nInstall.js uses.
 */
declare module 'semver' {
	/** -1, 0 or 1 as `a` is lower than, equal to or higher than `b`; throws on an invalid version. */
	export function compare(a: string, b: string): -1 | 0 | 1;
}
