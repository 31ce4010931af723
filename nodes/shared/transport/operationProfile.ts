import type { INodeProperties } from 'n8n-workflow';

/**
 * What the transport and the item loop need to know of an operation: its name for messages,
 * whether repeating it records something twice, and what identifies an item's record.
 */

/**
 * `read`: changes nothing. `idempotentWrite`: records something, but a repeat changes nothing
 * more (Refund, Promoter Login) or only issues a fresh code (the authorization calls).
 * `write`: a repeat records again (the Track operations), or fails (Exchange Code).
 */
export type OperationKind = 'read' | 'idempotentWrite' | 'write';

export interface OperationProfile {
	/** The action's label, for messages. */
	action: string;
	kind: OperationKind;
	/** The field that identifies an item's record at the service: its name and its label. */
	key: Pick<INodeProperties, 'displayName' | 'name'>;
}

/** Whether a request may be sent again after it may have reached the service. */
export function isSafeToRepeat(profile: OperationProfile): boolean {
	return profile.kind !== 'write';
}
