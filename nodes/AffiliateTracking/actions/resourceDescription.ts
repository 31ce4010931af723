import { updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

/** An operation's entry in its resource's Operation selector; its value is its key in the resource. */
export interface OperationChoice {
	name: string;
	action: string;
	description: string;
}

/**
 * A resource's part of the node's description: its Operation selector, then each operation's
 * properties shown only for that operation, both in the order of `operations`, whose keys are
 * the operation values the router reads. n8n's lint checks an Operation selector written out in
 * place, not this one: test/package/description.test.ts checks the built selectors instead.
 */
export function resourceDescription<
	Operations extends Record<string, { properties: INodeProperties[] }>,
>(
	resource: string,
	operations: Operations,
	choices: Record<keyof Operations, OperationChoice>,
	defaultOperation: keyof Operations & string,
): INodeProperties[] {
	const names: Array<keyof Operations & string> = Object.keys(operations);
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: names.map((value) => {
				const { name, action, description } = choices[value];
				return { name, value, action, description };
			}),
			default: defaultOperation,
		},
		...names.flatMap((operation) =>
			updateDisplayOptions(
				{ show: { resource: [resource], operation: [operation] } },
				operations[operation].properties,
			),
		),
	];
}
