// @ts-check
'use strict';
/**
 * What only tests and benchmarks use, kept apart from the API's domain: the refund ledger and the
 * bulk seeders. One instance per state: `sandbox.instrumentation`, made anew on each reset.
 */
const { CODE } = require('./api/envelope');
const { promoterLogin } = require('./api/promoters');

/**
 * @typedef {import('./api/state').SandboxState} SandboxState
 * @typedef {import('./api/state').Product} Product
 * @typedef {import('./api/envelope').Envelope} Envelope
 * @typedef {{ applied: number, alreadyRefunded: number, refused: number }} RefundCounts
 */

class Instrumentation {
	/** @param {SandboxState} state */
	constructor(state) {
		this.state = state;
		/** Refund answers (applied, a repeat, refused) by transaction id: what the storm checks. */
		/** @type {Map<string, RefundCounts>} */
		this.refundLedger = new Map();
	}

	/** Counts a Refund answer in the ledger. @param {Record<string, unknown>} input @param {Envelope} answer */
	recordRefund(input, answer) {
		const txnId = String(input.transaction_id ?? '').trim();
		const entry = this.refundLedger.get(txnId) ?? { applied: 0, alreadyRefunded: 0, refused: 0 };
		const status = /** @type {{ status?: string } | null} */ (answer.data)?.status;
		if (answer.code !== CODE.ok) entry.refused++;
		else if (status === 'APPLIED') entry.applied++;
		else entry.alreadyRefunded++;
		this.refundLedger.set(txnId, entry);
	}

	/**
	 * The product's referral campaign and the promoter `promoterUserId` in it (by default the
	 * product's first promoter with a referral code), for test data attributed to them.
	 * @param {string} product @param {string} [promoterUserId]
	 */
	referral(product, promoterUserId) {
		const campaign = /** @type {Product} */ (this.state.products.get(product)).referralCampaign;
		const promoters = [...this.state.promoters.values()];
		const promoter =
			promoterUserId === undefined
				? promoters.find((p) => p.product === product && p.referralCode !== null)
				: this.state.findPromoter(product, promoterUserId);
		if (!campaign || !promoter)
			throw new Error(`${product} has no referral campaign with a promoter`);
		return { product, campaignId: campaign.id, affiliateId: promoter.affiliateId };
	}

	/**
	 * `count` refundable purchases of a new signed-up user each, with one pending reward, referred
	 * as `referral()` says. @param {string} product @param {number} count @param {string} prefix
	 * @param {string} [promoterUserId] @returns {string[]} their transaction ids
	 */
	addPurchases(product, count, prefix = 'bulk', promoterUserId) {
		const referral = this.referral(product, promoterUserId);
		return Array.from({ length: count }, (_, i) => {
			const txnId = `${prefix}_${i}`;
			const userId = `${prefix}_user_${i}`;
			this.state.createConversion(referral, 'signup', userId);
			const purchase = this.state.createConversion(referral, 'purchase', userId, txnId, 1000);
			this.state.addReward(purchase, null, 100, 'pending');
			return txnId;
		});
	}

	/**
	 * `count` new users signed up as `referral()` says, whose purchases a test then tracks.
	 * @param {string} product @param {number} count @param {string} prefix
	 * @param {string} [promoterUserId] @returns {string[]} their user ids in the product
	 */
	addSignups(product, count, prefix, promoterUserId) {
		const referral = this.referral(product, promoterUserId);
		return Array.from({ length: count }, (_, i) => {
			const userId = `${prefix}_user_${i}`;
			this.state.createConversion(referral, 'signup', userId);
			return userId;
		});
	}

	/**
	 * New activity of a promoter: clicks on its links, paying customers (as addPurchases makes them)
	 * and funds credited to its wallet. @param {string} product @param {string} userId
	 * @param {{ clicks?: number, payingCustomers?: number, credit?: { currency: string, cents: number } }} activity
	 */
	addActivity(product, userId, activity) {
		const promoter = this.state.findPromoter(product, userId);
		if (!promoter) throw new Error(`${userId} is not a promoter of ${product}`);
		for (let i = 0; i < (activity.clicks ?? 0); i++) promoter.clicks.push(this.state.now());
		const paying = activity.payingCustomers ?? 0;
		if (paying > 0) this.addPurchases(product, paying, `activity_${this.state.nextId}`, userId);
		if (activity.credit) {
			const { currency, cents } = activity.credit;
			promoter.wallet.push({ currency, availableCents: cents, withdrawingCents: 0 });
		}
	}

	/**
	 * Benchmark data: `count` promoters `${prefix}_0` … of a product, as Promoter Login makes them.
	 * @param {string} product @param {number} count @param {string} prefix @returns {string[]} their user ids
	 */
	addPromoters(product, count, prefix) {
		return Array.from({ length: count }, (_, i) => {
			const userId = `${prefix}_${i}`;
			const answer = promoterLogin(this.state, product, { user_id: userId });
			if (answer.code !== CODE.ok) throw new Error(answer.message);
			return userId;
		});
	}
}

module.exports = { Instrumentation };
