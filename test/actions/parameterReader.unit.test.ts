/** ParameterReader on the sources: what each reader accepts, and the error that names the parameter. */
import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { ParameterReader } from '../../nodes/shared/helpers/validation';
import { fakeContext } from '../../support/fakes/fakeContext';
import { scenario } from '../../support/scenarios';

/** The field read: its label is what every error names. */
const FIELD: INodeProperties = { displayName: 'Field', name: 'field', type: 'string', default: '' };

function reader(value: unknown): ParameterReader {
	const parameters: IDataObject = value === undefined ? {} : { field: value as IDataObject };
	return new ParameterReader(fakeContext({ parameters }).context, 3);
}

/** The message a reader throws, or its result. */
function outcome(read: (params: ParameterReader) => unknown, value: unknown): unknown {
	try {
		return { value: read(reader(value)) };
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		const nodeError = error as NodeOperationError;
		expect(nodeError.context.itemIndex).toBe(3);
		expect(nodeError.description).toBe(
			'The request was not sent. Fix the parameter (or the input field it reads) and run again.',
		);
		return { error: nodeError.message };
	}
}

const longText = 'x'.repeat(256);
/** A reader's refusal: the message names the field's label. */
const fails = (message: string) => ({ error: `Parameter "Field" ${message}` });
const notDate = (got: string) =>
	fails(`must be a real date written YYYY-MM-DD, like 2026-03-01 (got "${got}")`);

describe(scenario('actions.parameterReader'), () => {
	it.each<[string, unknown, unknown]>([
		['trimmed text', '  u_1 ', { value: 'u_1' }],
		['a number from an expression', 20260301, { value: '20260301' }],
		['255 characters', 'y'.repeat(255), { value: 'y'.repeat(255) }],
		['empty', '', fails('is required and must not be empty')],
		['missing', undefined, fails('is required and must not be empty')],
		['whitespace', '   ', fails('is required and must not be empty')],
		['256 characters', longText, fails('must be at most 255 characters (got 256)')],
		['an object', { a: 1 }, fails('must be text, got an object')],
		['a list', [1], fails('must be text, got a list')],
		['a boolean', true, fails('must be text, got boolean true')],
	])('requiredString: %s', (_name, value, expected) => {
		expect(outcome((params) => params.requiredString(FIELD), value)).toEqual(expected);
	});

	it('requiredString: an expression reading a missing input field says so once', () => {
		// n8n returns what the expression gave (undefined), not the fallback.
		const { context } = fakeContext({ parameters: {} });
		const getNodeParameter = (() => undefined) as unknown as IExecuteFunctions['getNodeParameter'];
		const params = new ParameterReader({ ...context, getNodeParameter }, 0);
		expect(() => params.requiredString(FIELD)).toThrow(
			'Parameter "Field" must be text, got undefined (is the input field missing?)',
		);
	});

	it("reads a collection's option by its path and names the option's own label", () => {
		const collection: INodeProperties = { ...FIELD, type: 'collection', name: 'additionalFields' };
		const option: INodeProperties = { ...FIELD, displayName: 'Renamed Label', name: 'option' };
		const { context } = fakeContext({ parameters: { additionalFields: { option: '  x ' } } });
		const optional = new ParameterReader(context, 0).within(collection);
		expect(optional.requiredString(option)).toBe('x');
		expect(() => optional.requiredString({ ...option, name: 'unset' })).toThrow(
			'Parameter "Renamed Label" is required and must not be empty',
		);
	});

	it("raw: the value as given, or the field's default when unset", () => {
		const flag: INodeProperties = { ...FIELD, type: 'boolean', default: true };
		expect(reader(false).raw(flag)).toBe(false);
		expect(reader(undefined).raw(flag)).toBe(true);
	});

	it.each<[string, unknown, unknown]>([
		['empty', '', { value: undefined }],
		['whitespace', '  ', { value: undefined }],
		['null', null, { value: undefined }],
		['text', ' a ', { value: 'a' }],
		['256 characters', longText, fails('must be at most 255 characters (got 256)')],
	])('optionalString: %s', (_name, value, expected) => {
		expect(outcome((params) => params.optionalString(FIELD), value)).toEqual(expected);
	});

	it.each<[string, unknown, unknown]>([
		['allowed', 'dark', { value: 'dark' }],
		['empty', '', { value: undefined }],
		['other', 'blue', fails('must be one of light, dark (got "blue")')],
	])('oneOf: %s', (_name, value, expected) => {
		expect(outcome((params) => params.oneOf(FIELD, ['light', 'dark']), value)).toEqual(expected);
	});

	it.each<[string, unknown, unknown]>([
		['an address', 'ada@example.com', { value: 'ada@example.com' }],
		['no domain', 'ada@', fails('must be an email address like name@example.com (got "ada@")')],
	])('email: %s', (_name, value, expected) => {
		expect(outcome((params) => params.email(FIELD), value)).toEqual(expected);
	});

	it.each<[string, unknown, boolean, unknown]>([
		['a number', 12.5, true, { value: 12.5 }],
		['numeric text', ' 49.90 ', true, { value: 49.9 }],
		['zero', 0, true, { value: 0 }],
		['empty, optional', '', false, { value: undefined }],
		['empty, required', '', true, fails('is required')],
		['negative', -1, true, fails('must not be negative (got -1)')],
		['text', 'ten', true, fails('must be a number, got "ten"')],
		['infinite', Infinity, true, fails('must be a number, got number Infinity')],
	])('amount: %s', (_name, value, required, expected) => {
		expect(
			outcome((params) => params.amount({ ...FIELD, type: 'number', required }), value),
		).toEqual(expected);
	});

	it.each<[string, unknown, unknown]>([
		['an object', { a: 1 }, { value: { a: 1 } }],
		['the text of one', '{"a": 1}', { value: { a: 1 } }],
		['empty text', ' ', { value: undefined }],
		['a list', '[1]', fails('must be a JSON object like {"key": "value"}, got a list')],
		['null', 'null', fails('must be a JSON object like {"key": "value"}, got null')],
		[
			'invalid JSON',
			'{"a": ',
			{
				error: expect.stringMatching(
					/^Parameter "Field" must be a JSON object; the text is not valid JSON \(/,
				),
			},
		],
	])('jsonObject: %s', (_name, value, expected) => {
		expect(outcome((params) => params.jsonObject(FIELD), value)).toEqual(expected);
	});

	it.each<[string, unknown, unknown]>([
		['a date', '2026-02-28', { value: '2026-02-28' }],
		['a leap day', '2028-02-29', { value: '2028-02-29' }],
		['empty', '', { value: undefined }],
		['30 February', '2026-02-30', notDate('2026-02-30')],
		['unpadded', '2026-3-1', notDate('2026-3-1')],
		['a time', '2026-03-01T10:00', notDate('2026-03-01T10:00')],
	])('date: %s', (_name, value, expected) => {
		expect(outcome((params) => params.date(FIELD), value)).toEqual(expected);
	});
});
