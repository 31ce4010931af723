/**
 * The Payment Webhook Trigger's parameters: provider, its events, how to respond, and options.
 * The values are a contract (saved workflows and the examples hold them).
 */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_USER_ID_METADATA_KEY } from './events';
import { eventsParameterOf } from './provider';
import { PROVIDER_PARAMETER, PROVIDERS, SIGNS_NO_TIMESTAMP } from './providers';
import { DEFAULT_TOLERANCE_SECONDS, MAX_TOLERANCE_SECONDS } from './signatures';

/** Display names that parameter errors quote. */
export const LABELS = {
	events: 'Events',
	toleranceSeconds: 'Timestamp Tolerance (Seconds)',
	userIdMetadataKey: 'User ID Metadata Key',
} as const;

export const properties: INodeProperties[] = [
	{
		displayName:
			"Paste this node's Production URL into the provider's webhook settings and its signing secret into the credential. Deliveries whose signature does not verify are answered 401 and start nothing.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	PROVIDER_PARAMETER,
	// Each provider's Events (an option per event it reads) and own parameters, shown for it only.
	...PROVIDERS.flatMap((provider) => [eventsParameterOf(provider), ...(provider.parameters ?? [])]),
	{
		displayName: 'Respond',
		name: 'responseMode',
		type: 'options',
		options: [
			{
				name: 'Immediately',
				value: 'onReceived',
				description: 'As soon as this node executes',
			},
			{
				name: 'When Last Node Finishes',
				value: 'lastNode',
				description: 'Returns the JSON of the first item of the last-executed node',
			},
			{
				name: "Using 'Respond to Webhook' Node",
				value: 'responseNode',
				description: 'Response defined in that node',
			},
		],
		default: 'onReceived',
		description:
			'When and how to answer an accepted delivery (a refused one is answered 401 at once)',
	},
	{
		displayName:
			"Use the 'Respond to Webhook' node at version 1: from version 1.1 on it stops with \"No Webhook node found in the workflow\" unless n8n's own Webhook node starts the workflow",
		name: 'respondNotice',
		type: 'notice',
		displayOptions: { show: { responseMode: ['responseNode'] } },
		default: '',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: LABELS.toleranceSeconds,
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_TOLERANCE_SECONDS, numberPrecision: 0 },
				displayOptions: { hide: { '/provider': SIGNS_NO_TIMESTAMP } },
				default: DEFAULT_TOLERANCE_SECONDS,
				description:
					"How far the signed timestamp may be from this server's clock, in the past or the future; older deliveries are refused as replays. At most 3600 (an hour). Hidden for providers that sign no timestamp.",
			},
			{
				displayName: LABELS.userIdMetadataKey,
				name: 'userIdMetadataKey',
				type: 'string',
				default: DEFAULT_USER_ID_METADATA_KEY,
				description:
					"The metadata key (Paddle and Lemon Squeezy: custom data) that holds your user ID; Stripe's client_reference_id, which a buyer can set, is read only when the metadata holds none",
			},
		],
	},
];
