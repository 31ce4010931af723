/**
 * The registry: every payment provider the trigger offers, in the order it lists them. The node,
 * its description, the credential test and the item builder know the providers only from here.
 */
import type { PaymentProvider } from '../provider';
import { creem } from './creem/creem';
import { lemonSqueezy } from './lemonSqueezy/lemonSqueezy';
import { paddle } from './paddle/paddle';
import { standardWebhooks } from './standardWebhooks/standardWebhooks';
import { stripe } from './stripe/stripe';

export const PROVIDERS = [stripe, paddle, lemonSqueezy, standardWebhooks, creem] as const;

/** A provider's ID, as saved workflows hold it in the `provider` parameter. */
export type Provider = (typeof PROVIDERS)[number]['option']['value'];

export function isProvider(id: string): id is Provider {
	return PROVIDERS.some((provider) => provider.option.value === id);
}

/** The module of a provider ID (every ID names one: the type says so). */
export function providerOf(id: Provider): PaymentProvider<Provider> {
	return PROVIDERS.find((provider) => provider.option.value === id) as PaymentProvider<Provider>;
}
