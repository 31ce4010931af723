// @ts-check
'use strict';
/**
 * The service's business state, as the spec's state table gives it: products, keys, promoters and
 * their referral codes, authorization codes, promoter center tokens, conversions and rewards, and
 * the primitives the endpoints (authorization.js, conversions.js, promoters.js) build on.
 */
const { shortHash } = require('./envelope');

/**
 * @typedef {{ key: string, name: string, currency: string, promotionUrl: string|null,
 *   affiliateCampaign: { id: number, state: string } | null,
 *   referralCampaign: { id: number, key: string, name: string, state: string, introductions: Record<string, { title: string, subtitle: string }> } | null,
 *   trackingDomains: Record<string, string> }} Product
 * @typedef {{ product: string, userId: string, status: string, lang: string, email?: string, username?: string,
 *   referralCode: string|null, joinedAt: number|null, extraLinks: { inviteCode: string, enabled: boolean }[],
 *   wallet: { currency: string, availableCents: number, withdrawingCents: number }[], clicks: number[] }} SeedPromoter
 * @typedef {{ product: string, promoter: string, event: string, invitedUserId: string, transactionId?: string,
 *   valueCents?: number, voided?: boolean, createdAt: number,
 *   rewards?: { status: string, cents: number, subRewards: { status: string, cents: number }[] }[] }} SeedConversion
 * @typedef {Omit<SeedPromoter, 'status' | 'lang' | 'extraLinks' | 'wallet' | 'clicks'> & Partial<SeedPromoter>} NewPromoter
 *   approved, in English and with no links, funds or clicks unless it says
 * @typedef {{ products: Product[], keys: Record<string, import('../seed').SeedKey>, promoters: NewPromoter[], conversions: SeedConversion[] }} SeedData
 * @typedef {SeedPromoter & { stringId: string, affiliateId: number, phone?: string, themeMode: string }} Promoter
 * @typedef {{ id: number, product: string, campaignId: number, affiliateId: number, eventType: number, eventName: string,
 *   status: number, invitedUserId: string, transactionId: string|null, valueCents: number, createdAt: number,
 *   voided: boolean, refundedAt: number|null, reason: string|null, adjustments: number, otherFields?: Record<string, unknown> }} Conversion
 * @typedef {{ id: number, conversionId: number, parentId: number|null, affiliateId: number, cents: number, currency: string,
 *   status: string, note: string, createdAt: number }} Reward
 * @typedef {{ target: string, source: string, userKey: string, userName: string, extra: object, locale: string,
 *   psRef: string, expiresAt: number, redeemed: boolean, debug: boolean }} AuthCode
 */

const EVENT_TYPES = { signup: 1, purchase: 2 };
const CUSTOM_EVENT_TYPE = 3;

/** Whether a conversion carries a payment (and so can be refunded). @param {Conversion} c */
const isPaidType = (c) =>
	c.eventName === 'purchase' || (c.eventName !== 'signup' && c.valueCents > 0);

class SandboxState {
	/** @param {SeedData} seed @param {() => number} now */
	constructor(seed, now) {
		this.now = now;
		/** @type {Map<string, Product>} */
		this.products = new Map(seed.products.map((p) => [p.key, p]));
		this.keys = new Map(Object.entries(seed.keys));
		/** @type {Map<string, Promoter>} keyed by product|userId */
		this.promoters = new Map();
		/** @type {Map<string, { product: string, affiliateId: number, campaignId: number }>} ps_ref → attribution */
		this.refs = new Map();
		/** @type {Map<string, AuthCode>} */
		this.authCodes = new Map();
		/** @type {Map<string, { product: string, userId: string, expiresAt: number }>} promoter center login tokens */
		this.centerTokens = new Map();
		/** @type {Conversion[]} */
		this.conversions = [];
		/** @type {Reward[]} */
		this.rewards = [];
		this.nextId = 1;
		for (const p of seed.promoters) this.addPromoter(p);
		for (const c of seed.conversions) this.addSeedConversion(c);
	}

	/** @param {NewPromoter} seed */
	addPromoter(seed) {
		const affiliateId = this.nextId++;
		/** @type {Promoter} */
		const promoter = {
			status: 'approved',
			lang: 'en',
			extraLinks: [],
			wallet: [],
			clicks: [],
			...seed,
			stringId: `ps_${shortHash(`${seed.product}|${seed.userId}`)}`,
			affiliateId,
			themeMode: 'light',
		};
		this.promoters.set(`${seed.product}|${seed.userId}`, promoter);
		const campaign = this.products.get(seed.product)?.referralCampaign;
		if (campaign) {
			for (const code of [promoter.referralCode, ...promoter.extraLinks.map((l) => l.inviteCode)]) {
				if (code)
					this.refs.set(code, { product: seed.product, affiliateId, campaignId: campaign.id });
			}
		}
		return promoter;
	}

	/** @param {SeedConversion} seed */
	addSeedConversion(seed) {
		const promoter = this.promoters.get(`${seed.product}|${seed.promoter}`);
		const campaign = this.products.get(seed.product)?.referralCampaign;
		if (!promoter || !campaign) throw new Error(`bad seed conversion ${JSON.stringify(seed)}`);
		const conversion = this.createConversion(
			{ product: seed.product, campaignId: campaign.id, affiliateId: promoter.affiliateId },
			seed.event,
			seed.invitedUserId,
			seed.transactionId,
			seed.valueCents,
			seed.createdAt,
		);
		conversion.voided = seed.voided === true;
		for (const reward of seed.rewards ?? []) {
			const parent = this.addReward(conversion, null, reward.cents, reward.status);
			for (const sub of reward.subRewards)
				this.addReward(conversion, parent.id, sub.cents, sub.status);
		}
	}

	/**
	 * A conversion attributed to `by`'s promoter and campaign, made now unless `createdAt` says.
	 * @param {Pick<Conversion, 'product' | 'campaignId' | 'affiliateId'>} by @param {string} eventName
	 * @param {string} invitedUserId @param {string|null} [transactionId] @param {number} [valueCents]
	 * @param {number} [createdAt]
	 */
	createConversion(
		{ product, campaignId, affiliateId },
		eventName,
		invitedUserId,
		transactionId = null,
		valueCents = 0,
		createdAt = this.now(),
	) {
		/** @type {Conversion} */
		const conversion = {
			id: this.nextId++,
			product,
			campaignId,
			affiliateId,
			eventType: EVENT_TYPES[/** @type {'signup'|'purchase'} */ (eventName)] ?? CUSTOM_EVENT_TYPE,
			eventName,
			status: 1,
			invitedUserId,
			transactionId,
			valueCents,
			createdAt,
			voided: false,
			refundedAt: null,
			reason: null,
			adjustments: 0,
		};
		this.conversions.push(conversion);
		return conversion;
	}

	/** @param {Conversion} conversion @param {number|null} parentId @param {number} cents @param {string} status */
	addReward(conversion, parentId, cents, status) {
		const currency = this.products.get(conversion.product)?.currency ?? 'USD';
		/** @type {Reward} */
		const reward = {
			id: this.nextId++,
			conversionId: conversion.id,
			parentId,
			affiliateId: conversion.affiliateId,
			cents,
			currency,
			status,
			note: '',
			createdAt: conversion.createdAt,
		};
		this.rewards.push(reward);
		return reward;
	}

	/** @param {string} product @param {string} userId */
	findPromoter(product, userId) {
		const promoter = this.promoters.get(`${product}|${userId}`);
		return promoter && !promoter.userId.startsWith('product:') ? promoter : undefined;
	}

	/** @param {string} product @param {number} campaignId */
	campaignInProgress(product, campaignId) {
		const p = this.products.get(product);
		const campaign = [p?.affiliateCampaign, p?.referralCampaign].find((c) => c?.id === campaignId);
		return campaign?.state === 'in_progress';
	}
}

module.exports = { SandboxState, isPaidType };
