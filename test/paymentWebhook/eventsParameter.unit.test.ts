/**
 * Each provider's Events parameter, built from the events its module reads (eventsParameterOf, in
 * the node's description): shown for its provider only, an option per event and Any Event, and
 * every event selected by default.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { LABELS } from '../../nodes/PaymentWebhookTrigger/description';
import { ANY_EVENT, eventsParameterOf } from '../../nodes/PaymentWebhookTrigger/provider';
import { PROVIDERS as REGISTRY } from '../../nodes/PaymentWebhookTrigger/providers';
import { scenario } from '../../support/scenarios';

describe(scenario('paymentWebhook.eventsParameter'), () => {
	it.each(REGISTRY.map((provider) => [provider.id, provider] as const))(
		'%s: shown for it only, an option per event and Any Event, sorted, all events by default',
		(id, provider) => {
			const { events } = provider;
			const eventsParameter = eventsParameterOf(provider);
			const eventValues = Object.keys(events);
			const options = (eventsParameter.options ?? []) as INodePropertyOptions[];
			expect(eventsParameter).toMatchObject({
				displayName: LABELS.events,
				name: 'events',
				type: 'multiOptions',
				displayOptions: { show: { provider: [id] } },
				default: eventValues,
			});
			expect(options.map(({ value }) => value).sort()).toEqual([ANY_EVENT, ...eventValues].sort());
			const names = options.map(({ name }) => name);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
			expect(options.filter(({ description }) => !description)).toEqual([]);
			expect(options.find(({ value }) => value === eventValues[0])?.name).toBe(
				events[eventValues[0]].name ?? eventValues[0],
			);
		},
	);
});
