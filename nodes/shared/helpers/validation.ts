import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

/** The spec's limit for ids, transaction ids and refund reasons. */
export const MAX_FIELD_LENGTH = 255;

/**
 * Reads and checks parameters of one item. Every failure is a NodeOperationError that names
 * the parameter (by its label in the node) and the rule, raised before any request is sent.
 */
export class ParameterReader {
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly itemIndex: number,
	) {}

	fail(label: string, rule: string): NodeOperationError {
		return new NodeOperationError(this.context.getNode(), `Parameter "${label}" ${rule}`, {
			itemIndex: this.itemIndex,
			description:
				'The request was not sent. Fix the parameter (or the input field it reads) and run again.',
		});
	}

	raw(name: string, fallback?: unknown): unknown {
		return this.context.getNodeParameter(name, this.itemIndex, fallback);
	}

	/** An id-like string: trimmed, not empty, at most 255 characters. */
	requiredString(name: string, label: string, maxLength = MAX_FIELD_LENGTH): string {
		const value = this.raw(name, '');
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
		if (typeof value !== 'string') throw this.fail(label, `must be text, got ${describe(value)}`);
		const trimmed = value.trim();
		if (trimmed === '') throw this.fail(label, 'is required and must not be empty');
		if (trimmed.length > maxLength) {
			throw this.fail(label, `must be at most ${maxLength} characters (got ${trimmed.length})`);
		}
		return trimmed;
	}

	/** An optional string: undefined when empty. */
	optionalString(name: string, label: string, maxLength = MAX_FIELD_LENGTH): string | undefined {
		const value = this.raw(name, '');
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
		if (typeof value !== 'string') throw this.fail(label, `must be text, got ${describe(value)}`);
		const trimmed = value.trim();
		if (trimmed === '') return undefined;
		if (trimmed.length > maxLength) {
			throw this.fail(label, `must be at most ${maxLength} characters (got ${trimmed.length})`);
		}
		return trimmed;
	}

	oneOf<T extends string>(name: string, label: string, allowed: readonly T[]): T | undefined {
		const value = this.optionalString(name, label);
		if (value === undefined) return undefined;
		if (!(allowed as readonly string[]).includes(value)) {
			throw this.fail(label, `must be one of ${allowed.join(', ')} (got "${value}")`);
		}
		return value as T;
	}

	email(name: string, label: string): string | undefined {
		const value = this.optionalString(name, label);
		if (value !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
			throw this.fail(label, `must be an email address like name@example.com (got "${value}")`);
		}
		return value;
	}

	/** A finite number not below zero; numeric strings from expressions are accepted. */
	amount(name: string, label: string, required: boolean): number | undefined {
		const value = this.raw(name, '');
		if (value === undefined || value === null || value === '') {
			if (required) throw this.fail(label, 'is required');
			return undefined;
		}
		const parsed = typeof value === 'string' ? Number(value.trim()) : value;
		if (
			typeof parsed !== 'number' ||
			!Number.isFinite(parsed) ||
			(typeof value === 'string' && value.trim() === '')
		) {
			throw this.fail(label, `must be a number, got ${describe(value)}`);
		}
		if (parsed < 0) throw this.fail(label, `must not be negative (got ${parsed})`);
		return parsed;
	}

	/** A JSON object given as an object or as the text of one; undefined when empty. */
	jsonObject(name: string, label: string): IDataObject | undefined {
		let value = this.raw(name, '');
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'string') {
			if (value.trim() === '') return undefined;
			try {
				value = JSON.parse(value);
			} catch (error) {
				throw this.fail(
					label,
					`must be a JSON object; the text is not valid JSON (${(error as Error).message})`,
				);
			}
		}
		if (value === null || typeof value !== 'object' || Array.isArray(value)) {
			throw this.fail(label, `must be a JSON object like {"key": "value"}, got ${describe(value)}`);
		}
		return value as IDataObject;
	}

	/** A calendar date written Y-m-d (2026-03-01); undefined when empty. */
	date(name: string, label: string): string | undefined {
		const value = this.optionalString(name, label);
		if (value === undefined) return undefined;
		const valid =
			/^\d{4}-\d{2}-\d{2}$/.test(value) &&
			!Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
			new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
		if (!valid) {
			throw this.fail(
				label,
				`must be a real date written YYYY-MM-DD, like 2026-03-01 (got "${value}")`,
			);
		}
		return value;
	}
}

function describe(value: unknown): string {
	// An expression such as {{ $json.id }} gives undefined when the input item lacks the field.
	if (value === undefined) return 'undefined (is the input field missing?)';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
	return `${typeof value} ${String(value)}`;
}
