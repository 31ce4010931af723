/**
 * The registry: every payment provider the trigger offers, its option in the Provider selector
 * (written out, so that n8n's lint reads it), and which sign no timestamp. The node, its
 * description, the credential test, the item builder and the tests know the providers only from
 * here.
 *
 * A new provider: its folder `<id>/` (`<id>.ts`, the module; `samples.js`, its sample events for
 * the tests), its test signer `support/payment/signers/<id>.js`, and here its import, its entry in
 * PROVIDERS and its option (and its ID in SIGNS_NO_TIMESTAMP if it signs none). Its
 * `codexAliases` go into PaymentWebhookTrigger.node.json and its `credentialText` into the
 * credential's help text: test/paymentWebhook/registry.unit.test.ts fails until they are there.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { PaymentProvider } from '../provider';
import { airwallex } from './airwallex/airwallex';
import { alipay } from './alipay/alipay';
import { appStore } from './appStore/appStore';
import { creem } from './creem/creem';
import { lemonSqueezy } from './lemonSqueezy/lemonSqueezy';
import { paddle } from './paddle/paddle';
import { polar } from './polar/polar';
import { standardWebhooks } from './standardWebhooks/standardWebhooks';
import { stripe } from './stripe/stripe';
import { wechatPay } from './wechatPay/wechatPay';

/** The modules, in the order the credential's text and the messages list them. */
export const PROVIDERS = [
	stripe,
	paddle,
	lemonSqueezy,
	polar,
	standardWebhooks,
	creem,
	airwallex,
	appStore,
	wechatPay,
	alipay,
] as const;

/** A provider's ID, as saved workflows hold it in the `provider` parameter. */
export type Provider = (typeof PROVIDERS)[number]['id'];

interface ProviderOption {
	name: string;
	value: Provider;
	/** How it signs and what its secret looks like. */
	description: string;
}

export const DEFAULT_PROVIDER: Provider = 'stripe';

/** The Provider selector: one option per module (a unit test checks it), sorted by name. */
export const PROVIDER_PARAMETER: Omit<INodeProperties, 'options'> & { options: ProviderOption[] } =
	{
		displayName: 'Provider',
		name: 'provider',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Airwallex',
				value: 'airwallex',
				description: "X-Signature and x-timestamp headers; the webhook's secret",
			},
			{
				name: 'Alipay',
				value: 'alipay',
				description: "Form field sign (RSA2); the app's Alipay public key",
			},
			{
				name: 'Apple App Store',
				value: 'appStore',
				description:
					"App Store Server Notifications V2: Apple's signed payload, checked offline; no secret",
			},
			{
				name: 'Creem',
				value: 'creem',
				description: 'Creem-Signature header; the secret starts with whsec_',
			},
			{
				name: 'Lemon Squeezy',
				value: 'lemonSqueezy',
				description: "X-Signature header; the webhook's signing secret",
			},
			{
				name: 'Paddle Billing',
				value: 'paddle',
				description: 'Paddle-Signature header; the secret key of the notification destination',
			},
			{
				name: 'Polar',
				value: 'polar',
				description:
					'Webhook-ID, webhook-timestamp and webhook-signature headers; the secret starts with polar_whs_ or whsec_',
			},
			{
				name: 'Standard Webhooks',
				value: 'standardWebhooks',
				description:
					'Webhook-ID, webhook-timestamp and webhook-signature headers (Svix, Dodo Payments and others); the secret starts with whsec_',
			},
			{
				name: 'Stripe',
				value: 'stripe',
				description: 'Stripe-Signature header; the secret starts with whsec_',
			},
			{
				name: 'WeChat Pay',
				value: 'wechatPay',
				description:
					'Wechatpay-Signature header (API v3); the WeChat Pay public key, its ID and the APIv3 key',
			},
		],
		default: DEFAULT_PROVIDER,
		description: 'Who signs the deliveries, and how',
	};

/** The providers that sign no timestamp: nothing is stale, the tolerance option is hidden. */
export const SIGNS_NO_TIMESTAMP: Provider[] = ['lemonSqueezy', 'creem', 'appStore', 'alipay'];

export function isProvider(id: string): id is Provider {
	return PROVIDERS.some((provider) => provider.id === id);
}

/** A provider by its ID in the registry, or its module itself (a test's module is not registered). */
export type ProviderRef = Provider | PaymentProvider;

export function moduleOf(ref: ProviderRef): PaymentProvider {
	return typeof ref === 'string' ? providerOf(ref) : ref;
}

/** The module of a provider ID (every ID names one: the type says so). */
export function providerOf(id: Provider): PaymentProvider<Provider> {
	return PROVIDERS.find((provider) => provider.id === id) as PaymentProvider<Provider>;
}

/** A provider's name, as its option shows it (its ID for a module not registered). */
export function nameOf(id: string): string {
	return PROVIDER_PARAMETER.options.find(({ value }) => value === id)?.name ?? id;
}
