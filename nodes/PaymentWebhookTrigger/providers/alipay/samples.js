// @ts-check
'use strict';
/**
 * The sample events of Alipay: an asynchronous notification of a paid trade (`TRADE_SUCCESS`)
 * and of a refund (`refund_fee`, `gmt_refund`), as the node reads them once verified: the form's
 * fields, decoded (the test signer, support/payment/signers/alipay.js, signs and form-encodes
 * them as Alipay sends them). Alipay's amounts are yuan (CNY), whatever currency a sample asks.
 * Read by the unit, engine and end-to-end tests (not by the node).
 */
const APP_ID = '2021000117600001';

/** @param {number} fen @returns {string} yuan with two decimals */
const yuan = (fen) => (fen / 100).toFixed(2);

/** @type {import('../../../../support/payment/signer').Samples & { appId: string }} */
module.exports = {
	appId: APP_ID,
	eventTypes: { purchase: 'TRADE_SUCCESS', refund: 'REFUND' },
	otherEvent: {
		notify_id: '1',
		app_id: APP_ID,
		trade_status: 'WAIT_BUYER_PAY',
		out_trade_no: 'order_1',
	},
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, partlyRefunded, refundedTotalMinor, eventId } =
			fields;
		const trade = {
			gmt_create: '2026-11-24 08:00:00',
			charset: 'utf-8',
			seller_email: 'seller@example.com',
			subject: 'Pro 年度订阅',
			buyer_id: '2088102122524333',
			notify_id: eventId,
			notify_type: 'trade_status_sync',
			app_id: APP_ID,
			seller_id: '2088102119685838',
			gmt_payment: '2026-11-24 08:00:05',
			version: '1.0',
			out_trade_no: transactionId,
			total_amount: yuan(amountMinor),
			trade_no: `2026112422001400${transactionId}`,
			auth_app_id: APP_ID,
			buyer_logon_id: 'csq***@sandbox.com',
			// The merchant URL-encodes it when it creates the order; Alipay returns it so.
			passback_params: encodeURIComponent(userId),
		};
		return kind === 'purchase'
			? {
					...trade,
					trade_status: 'TRADE_SUCCESS',
					notify_time: '2026-11-24 08:00:06',
					invoice_amount: yuan(amountMinor),
					receipt_amount: yuan(amountMinor),
					buyer_pay_amount: yuan(amountMinor),
					point_amount: '0.00',
					fund_bill_list: `[{"amount":"${yuan(amountMinor)}","fundChannel":"ALIPAYACCOUNT"}]`,
				}
			: {
					...trade,
					// A full refund closes the trade; after a partial one it stays paid.
					trade_status: partlyRefunded ? 'TRADE_SUCCESS' : 'TRADE_CLOSED',
					notify_time: '2026-11-25 10:00:01',
					gmt_refund: '2026-11-25 10:00:00.123',
					out_biz_no: `refund_${fields.refundKey}`,
					refund_fee: yuan(refundedTotalMinor),
				};
	},
};
