/**
 * The node's parameters for one input item, checked before any request: each refusal names the
 * parameter and what it must be.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { parseCursor, type Anchor } from './cursor';
import { BOUNDS, LABELS } from './description';
import { EVENT_SOURCES, isEventsProvider, type EventsProvider } from './providers';

export interface RunSettings {
	provider: EventsProvider;
	/** The Start After cursor's anchor; null on a first run. */
	anchor: Anchor | null;
	firstRunDays: number;
	overlapMinutes: number;
	maxEvents: number;
	/** Apple's environment; empty for the others. */
	environment: string;
	/** The API Base URL option without its trailing slashes; null when not set. */
	apiBaseUrl: string | null;
}

const LOCAL_HOSTS = ['127.0.0.1', 'localhost'];

function parameterError(
	context: IExecuteFunctions,
	itemIndex: number,
	label: string,
	rule: string,
): NodeOperationError {
	return new NodeOperationError(context.getNode(), `Parameter "${label}" ${rule}`, {
		description: 'Nothing was requested: fix the parameter and run again.',
		itemIndex,
	});
}

const shown = (value: unknown) => JSON.stringify(String(value).slice(0, 80));

/** Why `value` cannot be the API Base URL, or null. */
export function apiBaseUrlProblem(value: string): string | null {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return `must be a URL such as https://proxy.example.com (got ${shown(value)})`;
	}
	const local = url.protocol === 'http:' && LOCAL_HOSTS.includes(url.hostname);
	if (url.protocol !== 'https:' && !local) {
		return `must use https:// (http:// only on 127.0.0.1 or localhost): the credential's key is sent to it (got ${shown(value)})`;
	}
	if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
		return `must be a host and optional path, without query, fragment or user (got ${shown(value)})`;
	}
	return null;
}

export function readSettings(context: IExecuteFunctions, itemIndex: number): RunSettings {
	const read = (name: string, fallback: unknown): unknown =>
		context.getNodeParameter(name, itemIndex, fallback) as unknown;
	const fail = (label: string, rule: string) => parameterError(context, itemIndex, label, rule);

	const provider = String(read('provider', 'stripe'));
	if (!isEventsProvider(provider)) {
		throw fail(
			LABELS.provider,
			`must be one of ${Object.keys(EVENT_SOURCES).join(', ')} (got ${shown(provider)})`,
		);
	}
	const cursorText = String(read('cursor', '') ?? '').trim();
	const anchor = cursorText === '' ? null : parseCursor(cursorText);
	if (cursorText !== '' && anchor === null) {
		throw fail(
			LABELS.cursor,
			`must be empty or the cursor of an item this node emitted, <timeMs>:<event id> (got ${shown(cursorText)})`,
		);
	}
	const whole = (name: keyof typeof BOUNDS): number => {
		const value = read(name, BOUNDS[name].default);
		const { min, max } = BOUNDS[name];
		if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
			throw fail(
				LABELS[name],
				`must be a whole number from ${min} to ${max} (got ${shown(value)})`,
			);
		}
		return value;
	};
	const firstRunDays = whole('firstRunDays');
	const overlapMinutes = whole('overlapMinutes');
	const maxEvents = whole('maxEvents');
	const environment = provider === 'appStore' ? String(read('environment', 'Production')) : '';

	const options = (read('options', {}) ?? {}) as IDataObject;
	const rawBase = typeof options.apiBaseUrl === 'string' ? options.apiBaseUrl.trim() : '';
	if (options.apiBaseUrl !== undefined && typeof options.apiBaseUrl !== 'string') {
		throw fail(LABELS.apiBaseUrl, `must be text (got ${shown(options.apiBaseUrl)})`);
	}
	const problem = rawBase === '' ? null : apiBaseUrlProblem(rawBase);
	if (problem !== null) throw fail(LABELS.apiBaseUrl, problem);
	const apiBaseUrl = rawBase === '' ? null : rawBase.replace(/\/+$/, '');
	return {
		provider,
		anchor,
		firstRunDays,
		overlapMinutes,
		maxEvents,
		environment,
		apiBaseUrl,
	};
}
