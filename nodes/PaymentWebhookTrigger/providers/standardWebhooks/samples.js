// @ts-check
'use strict';
/**
 * The sample events of Standard Webhooks: Polar's `order.paid` / `order.refunded` in the
 * standard's envelope. The provider reads them with Polar's readers (ORDER_EVENTS), so its samples
 * are Polar's (polar/samples.js): read by the unit, engine and end-to-end tests (not by the node).
 */
module.exports = require('../polar/samples');
