// @ts-check
'use strict';
/**
 * The sample events of WeChat Pay API v3: `TRANSACTION.SUCCESS` / `REFUND.SUCCESS`, as the
 * node reads them once verified: the notification with its `resource` decrypted (the test signer,
 * support/payment/signers/wechatPay.js, seals the resource as WeChat Pay sends it). Read by the
 * unit, engine and end-to-end tests (not by the node).
 */
const MERCHANT_ID = '1900000109';

/** @type {import('../../../../support/payment/signer').Samples & { merchantId: string }} */
module.exports = {
	merchantId: MERCHANT_ID,
	eventTypes: { purchase: 'TRANSACTION.SUCCESS', refund: 'REFUND.SUCCESS' },
	otherEvent: {
		id: 'EV-1',
		event_type: 'REFUND.ABNORMAL',
		resource: { mchid: MERCHANT_ID, out_trade_no: 'order_1', refund_status: 'ABNORMAL' },
	},
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, currency, refundedMinor, eventId } = fields;
		const envelope = {
			id: eventId,
			create_time: '2026-11-24T08:00:00+08:00',
			resource_type: 'encrypt-resource',
		};
		return kind === 'purchase'
			? {
					...envelope,
					event_type: 'TRANSACTION.SUCCESS',
					summary: '支付成功',
					resource: {
						mchid: MERCHANT_ID,
						appid: 'wxd678efh567hg6787',
						out_trade_no: transactionId,
						transaction_id: `4200000001${transactionId}`,
						trade_type: 'JSAPI',
						trade_state: 'SUCCESS',
						trade_state_desc: '支付成功',
						bank_type: 'CMC',
						attach: userId,
						success_time: '2026-11-24T08:00:00+08:00',
						payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
						amount: {
							total: amountMinor,
							payer_total: amountMinor,
							currency,
							payer_currency: currency,
						},
					},
				}
			: {
					...envelope,
					event_type: 'REFUND.SUCCESS',
					summary: '退款成功',
					resource: {
						mchid: MERCHANT_ID,
						out_trade_no: transactionId,
						transaction_id: `4200000001${transactionId}`,
						out_refund_no: `refund_${fields.refundKey}`,
						refund_id: `50000000${fields.refundKey}`,
						refund_status: 'SUCCESS',
						success_time: '2026-11-24T09:00:00+08:00',
						user_received_account: '招商银行信用卡0403',
						// Domestic refunds name no currency; cross-border ones do.
						amount: {
							total: amountMinor,
							refund: refundedMinor,
							payer_total: amountMinor,
							payer_refund: refundedMinor,
							currency,
						},
					},
				};
	},
};
