// @ts-check
'use strict';
/**
 * The sandbox's public interface: what e2e/, bench/, scripts/ and support/ may use. Everything else
 * in sandbox/ is its inside (server.js lists the modules) and may change with it.
 * - `Sandbox`: the server (start, stop, reset, faults, stats, the state);
 * - the seed: `KEYS` (API keys with their secrets), `PRODUCTS`, `WRONG_SECRET`;
 * - the domain functions a test calls on a running sandbox's `state` to know the expected answer:
 *   `readPromoter`, `trackConversion`, `issueAuthCode`;
 * - `percentile` (the one percentile, reported by GET /__sandbox/stats) and `mulberry32` (the
 *   seeded random numbers of the faults), for the benchmarks and the test signers;
 * - `ProviderApis`: a second server, of Stripe's, Paddle's and the App Store's event-history APIs
 *   (providerApis/), for the reconciliation pass's tests;
 * - `googlePlayEmulation`: the emulated Google the sandbox serves under /__providers/googlePlay
 *   (paymentProviders/googlePlay.js), whose keys Google Play's test signer signs push tokens with.
 */
/** @typedef {import('./stats').RecordedCall} RecordedCall an API call as the sandbox received it */

const { Sandbox, PREFIX } = require('./server');
const { KEYS, PRODUCTS, WRONG_SECRET } = require('./seed');
const { readPromoter } = require('./api/promoters');
const { trackConversion } = require('./api/conversions');
const { issueAuthCode } = require('./api/authorization');
const { percentile } = require('./stats');
const { mulberry32 } = require('./faults');
const { ProviderApis } = require('./providerApis/server');
const googlePlayEmulation = require('./paymentProviders/googlePlay');

module.exports = {
	Sandbox,
	PREFIX,
	KEYS,
	PRODUCTS,
	WRONG_SECRET,
	readPromoter,
	trackConversion,
	issueAuthCode,
	percentile,
	mulberry32,
	ProviderApis,
	googlePlayEmulation,
};
