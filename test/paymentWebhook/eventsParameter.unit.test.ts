/**
 * Each provider's Events parameter, written out in its module (providers/<id>/<id>.ts): shown for
 * its provider only, an option per event and Any Event, and every event selected by default.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { LABELS } from '../../nodes/PaymentWebhookTrigger/description';
import { ANY_EVENT } from '../../nodes/PaymentWebhookTrigger/provider';
import { PROVIDERS as REGISTRY } from '../../nodes/PaymentWebhookTrigger/providers';
import { scenario } from '../../support/scenarios';

describe(scenario('paymentWebhook.eventsParameter'), () => {
	it.each(REGISTRY.map((provider) => [provider.id, provider] as const))(
		'%s: shown for it only, an option per event and Any Event, sorted, all events by default',
		(id, { eventsParameter, events }) => {
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
		},
	);
});
