import type { INodeProperties } from 'n8n-workflow';

/**
 * An operation's Additional Fields: a collection of its optional `options`. Written out here,
 * so n8n's lint reads the collection; the description test checks the order of its options.
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
