/**
 * The registry: one line per payment provider module, in the order the credential's help text
 * and the messages list them. A new provider is its folder `<id>/` and its line here.
 */
export { stripe } from './stripe/stripe';
export { paddle } from './paddle/paddle';
export { lemonSqueezy } from './lemonSqueezy/lemonSqueezy';
export { polar } from './polar/polar';
export { standardWebhooks } from './standardWebhooks/standardWebhooks';
export { creem } from './creem/creem';
export { airwallex } from './airwallex/airwallex';
export { appStore } from './appStore/appStore';
export { wechatPay } from './wechatPay/wechatPay';
export { alipay } from './alipay/alipay';
export { dodo } from './dodo/dodo';
export { googlePlay } from './googlePlay/googlePlay';
export { paypal } from './paypal/paypal';
