import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

/** The spec's limit for ids, transaction ids and refund reasons. */
export const MAX_FIELD_LENGTH = 255;

/** The message of a parameter that breaks `rule`, naming it by its label. */
export function parameterMessage(field: INodeProperties, rule: string): string {
	return `Parameter "${field.displayName}" ${rule}`;
}

/**
 * Reads and checks parameters of one item. Each reader takes the field itself (the
 * `INodeProperties` of the description), so that its name is read and its label (displayName)
 * names it in every error: a NodeOperationError with the rule, raised before any request is sent.
 */
export class ParameterReader {
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly itemIndex: number,
		/** The collections the fields lie in, as a parameter path prefix (`additionalFields.`). */
		private readonly prefix = '',
	) {}

	/** A reader of the options of `collection` (an Additional Fields collection). */
	within(collection: INodeProperties): ParameterReader {
		return new ParameterReader(this.context, this.itemIndex, `${this.prefix}${collection.name}.`);
	}

	fail(field: INodeProperties, rule: string): NodeOperationError {
		return new NodeOperationError(this.context.getNode(), parameterMessage(field, rule), {
			itemIndex: this.itemIndex,
			description:
				'The request was not sent. Fix the parameter (or the input field it reads) and run again.',
		});
	}

	/** The field's value as n8n gives it; the field's default when it is not set. */
	raw(field: INodeProperties): unknown {
		return this.value(field, field.default);
	}

	private value(field: INodeProperties, fallback: unknown): unknown {
		return this.context.getNodeParameter(`${this.prefix}${field.name}`, this.itemIndex, fallback);
	}

	/** An id-like string: trimmed, not empty, at most 255 characters. */
	requiredString(field: INodeProperties): string {
		const value = this.value(field, '');
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
		if (typeof value !== 'string') throw this.fail(field, `must be text, got ${describe(value)}`);
		const trimmed = value.trim();
		if (trimmed === '') throw this.fail(field, 'is required and must not be empty');
		return this.withinLimit(field, trimmed);
	}

	/** An optional string: undefined when empty. */
	optionalString(field: INodeProperties): string | undefined {
		const value = this.value(field, '');
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
		if (typeof value !== 'string') throw this.fail(field, `must be text, got ${describe(value)}`);
		const trimmed = value.trim();
		return trimmed === '' ? undefined : this.withinLimit(field, trimmed);
	}

	private withinLimit(field: INodeProperties, text: string): string {
		if (text.length > MAX_FIELD_LENGTH) {
			throw this.fail(field, `must be at most ${MAX_FIELD_LENGTH} characters (got ${text.length})`);
		}
		return text;
	}

	oneOf<T extends string>(field: INodeProperties, allowed: readonly T[]): T | undefined {
		const value = this.optionalString(field);
		if (value === undefined) return undefined;
		if (!(allowed as readonly string[]).includes(value)) {
			throw this.fail(field, `must be one of ${allowed.join(', ')} (got "${value}")`);
		}
		return value as T;
	}

	email(field: INodeProperties): string | undefined {
		const value = this.optionalString(field);
		if (value !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
			throw this.fail(field, `must be an email address like name@example.com (got "${value}")`);
		}
		return value;
	}

	/**
	 * A finite number not below zero; numeric strings from expressions are accepted. Empty is an
	 * error when the field is required.
	 */
	amount(field: INodeProperties): number | undefined {
		const value = this.value(field, '');
		if (value === undefined || value === null || value === '') {
			if (field.required === true) throw this.fail(field, 'is required');
			return undefined;
		}
		const parsed = typeof value === 'string' ? Number(value.trim()) : value;
		if (
			typeof parsed !== 'number' ||
			!Number.isFinite(parsed) ||
			(typeof value === 'string' && value.trim() === '')
		) {
			throw this.fail(field, `must be a number, got ${describe(value)}`);
		}
		if (parsed < 0) throw this.fail(field, `must not be negative (got ${parsed})`);
		return parsed;
	}

	/** A JSON object given as an object or as the text of one; undefined when empty. */
	jsonObject(field: INodeProperties): IDataObject | undefined {
		let value = this.value(field, '');
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'string') {
			if (value.trim() === '') return undefined;
			try {
				value = JSON.parse(value);
			} catch (error) {
				throw this.fail(
					field,
					`must be a JSON object; the text is not valid JSON (${(error as Error).message})`,
				);
			}
		}
		if (value === null || typeof value !== 'object' || Array.isArray(value)) {
			throw this.fail(field, `must be a JSON object like {"key": "value"}, got ${describe(value)}`);
		}
		return value as IDataObject;
	}

	/** A calendar date written Y-m-d (2026-03-01); undefined when empty. */
	date(field: INodeProperties): string | undefined {
		const value = this.optionalString(field);
		if (value === undefined) return undefined;
		const valid =
			/^\d{4}-\d{2}-\d{2}$/.test(value) &&
			!Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
			new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
		if (!valid) {
			throw this.fail(
				field,
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
