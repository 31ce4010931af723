/**
 * The App Store tests' delivery through the whole trigger: a notification to a Payment Webhook
 * Trigger for the samples' app, its credential holding `rootCa`.
 */
import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import { appStore } from '../../nodes/PaymentWebhookTrigger/providers/appStore/appStore';
import * as samples from '../../nodes/PaymentWebhookTrigger/providers/appStore/samples';
import { fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';

/** The trigger's answer to `rawBody` (or what it threw), and the fake n8n it answered through. */
export async function deliverToAppStoreTrigger(
	rawBody: string,
	rootCa: string,
	parameters: Record<string, string> = {},
) {
	const fake = fakeWebhookContext({
		rawBody,
		secret: '',
		credential: { rootCa },
		headers: { 'content-type': 'application/json' },
		parameters: {
			provider: 'appStore',
			events: Object.keys(appStore.events),
			responseMode: 'onReceived',
			options: {},
			bundleId: samples.bundleId,
			environment: samples.environment,
			...parameters,
		},
	});
	return {
		fake,
		result: await new PaymentWebhookTrigger().webhook
			.call(fake.context)
			.catch((error: unknown) => error),
	};
}
