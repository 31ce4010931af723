import type { INodeProperties } from 'n8n-workflow';

/**
 * An operation's Additional Fields: the collection holding its optional parameters, which
 * `execute` reads as `additionalFields.<name>`. Callers list the options alphabetised by display
 * name when there are five or more, as n8n's lint asks of a collection written out in place
 * (test/package/description.test.ts checks it on the built description).
 */
export function additionalFields(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}
