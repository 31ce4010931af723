/**
 * The Payment Provider Events node's parameters. Names and values are a contract (saved
 * workflows and the examples hold them).
 */
import type { INodeProperties } from 'n8n-workflow';

import { APP_STORE_ENVIRONMENTS } from '../PaymentWebhookTrigger/providers/appStore/notification';
import { optionsCollection } from '../shared/helpers/sharedOptions';

/** Display names that parameter errors quote. */
export const LABELS = {
	provider: 'Provider',
	cursor: 'Start After',
	firstRunDays: 'First Run Days',
	overlapMinutes: 'Overlap (Minutes)',
	maxEvents: 'Max Events',
	environment: 'Environment',
	apiBaseUrl: 'API Base URL',
} as const;

/** Each number parameter's default and bounds, as the parameters below write them out. */
export const BOUNDS = {
	firstRunDays: { default: 3, min: 1, max: 30 },
	overlapMinutes: { default: 10, min: 0, max: 1440 },
	maxEvents: { default: 1000, min: 1, max: 10000 },
} as const;

export const properties: INodeProperties[] = [
	{
		displayName:
			"Each item is what the Payment Webhook Trigger makes of the same event, plus its cursor. Save the last handled item's cursor (a Data Table row, for example) and give it as Start After on the next run.",
		name: 'cursorNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: LABELS.provider,
		name: 'provider',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Apple App Store',
				value: 'appStore',
				description: "App Store Server API's notification history (180 days), each entry verified",
			},
			{
				name: 'Paddle Billing',
				value: 'paddle',
				description: "Paddle's events list",
			},
			{
				name: 'Stripe',
				value: 'stripe',
				description: "Stripe's Events API (30 days)",
			},
		],
		default: 'stripe',
		description: 'Whose event history to read',
	},
	{
		displayName: LABELS.environment,
		name: 'environment',
		type: 'options',
		// The trigger's own list: a notification's environment is named the same in both.
		options: APP_STORE_ENVIRONMENTS.map((environment) => ({
			name: environment,
			value: environment,
		})),
		default: 'Production',
		displayOptions: { show: { provider: ['appStore'] } },
		description:
			"The App Store environment whose notifications to read; notifications of the other are refused, as the Payment Webhook Trigger's Environment refuses them",
	},
	{
		displayName: LABELS.cursor,
		name: 'cursor',
		type: 'string',
		default: '',
		placeholder: '1764000000000:evt_1QxY…',
		description:
			'The cursor of the last item the previous run handled; empty on the first run. The run reads the events after it.',
	},
	{
		displayName: LABELS.firstRunDays,
		name: 'firstRunDays',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 30, numberPrecision: 0 },
		default: 3,
		description: 'On the first run (Start After empty), how many days back to start',
	},
	{
		displayName: LABELS.overlapMinutes,
		name: 'overlapMinutes',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1440, numberPrecision: 0 },
		default: 10,
		description:
			"How much each run reads again before where the last stopped, for events a provider lists late: each item's cursor is this much older than the item",
	},
	{
		displayName: LABELS.maxEvents,
		name: 'maxEvents',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10000, numberPrecision: 0 },
		default: 1000,
		description:
			"The most events one run emits; the next run continues from the last item's cursor",
	},
	optionsCollection([
		{
			displayName: LABELS.apiBaseUrl,
			name: 'apiBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://proxy.example.com',
			description:
				"A host to ask instead of the provider's own API host, for tests or a proxy. Must use https://; http:// only on 127.0.0.1 or localhost. The credential's key is sent to it.",
		},
	]),
];
