/**
 * The node the fakes (fakeContext.ts, fakeWebhookContext.ts) hand to the sources as `getNode()`:
 * one of this package's nodes, version 1, with its one credential. Its parameters stay empty: the
 * sources read them through the fake's getNodeParameter.
 */
import type { INode } from 'n8n-workflow';

export function fakeNode(
	node: Pick<INode, 'id' | 'name' | 'type'> & Partial<INode>,
	credentialType: string,
): INode {
	return {
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		...node,
		credentials: { [credentialType]: { id: 'unit', name: 'unit' } },
	};
}
