// @ts-check
'use strict';
/**
 * The service's business state and rules, as the spec's state table and error tables give them.
 * Every method answers an envelope ({ code, message, data }) or, for authorizeAndRedirect, a
 * redirect; none of them throws for a business failure.
 */
const crypto = require('node:crypto');

const CODE = { ok: 0, notFound: 1000001, auth: 1000004, invalid: 1000005, other: 6000000 };
const UTC8 = 8 * 3600 * 1000;

/** @typedef {{ code: number, message: string, data: unknown }} Envelope */
/** @typedef {{ redirect: string }} Redirect */
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
 * @typedef {{ products: Product[], keys: Record<string, import('./seed').SeedKey>, promoters: SeedPromoter[], conversions: SeedConversion[] }} SeedData
 * @typedef {SeedPromoter & { stringId: string, affiliateId: number, phone?: string, themeMode: string }} Promoter
 * @typedef {{ id: number, product: string, campaignId: number, affiliateId: number, eventType: number, eventName: string,
 *   status: number, invitedUserId: string, transactionId: string|null, valueCents: number, createdAt: number,
 *   voided: boolean, refundedAt: number|null, reason: string|null, adjustments: number, otherFields?: Record<string, unknown> }} Conversion
 * @typedef {{ id: number, conversionId: number, parentId: number|null, affiliateId: number, cents: number, currency: string,
 *   status: string, note: string, createdAt: number }} Reward
 * @typedef {{ target: string, source: string, userKey: string, userName: string, extra: object, locale: string,
 *   psRef: string, expiresAt: number, redeemed: boolean, debug: boolean }} AuthCode
 */

/** @param {number} code @param {string} message @returns {Envelope} */
const fail = (code, message) => ({ code, message, data: null });
/** @param {unknown} data @param {string} [message] @returns {Envelope} */
const ok = (data, message = 'success') => ({ code: CODE.ok, message, data });
/** @param {number} cents */
const money = (cents) => (cents / 100).toFixed(2);
/** @param {number} ms ISO 8601 in UTC+8 with its offset */
const isoUtc8 = (ms) => new Date(ms + UTC8).toISOString().replace(/\.\d{3}Z$/, '+08:00');
/** @param {number} ms "Y-m-d H:i:s" in UTC+8 */
const ymdHisUtc8 = (ms) =>
	new Date(ms + UTC8)
		.toISOString()
		.replace('T', ' ')
		.replace(/\.\d{3}Z$/, '');
/** @param {string} text */
const shortHash = (text) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
/** @param {unknown} v */
const isNonEmptyString = (v) => typeof v === 'string' && v.trim() !== '';
/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A date of the Y-m-d form that names a real calendar day, as PHP's date_format:Y-m-d. */
function parseYmd(/** @type {unknown} */ value) {
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
	const ms = Date.parse(`${value}T00:00:00Z`);
	if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return null;
	return ms - UTC8;
}

const AUTH_CODE_TTL_MS = 10 * 60 * 1000;
/** The spec does not give a token lifetime; an hour is long enough for a demo and short enough to expire. */
const CENTER_TOKEN_TTL_MS = 60 * 60 * 1000;
const LANGS = ['zh', 'en', 'zh-hk'];
const THEMES = ['light', 'dark'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EVENT_TYPES = { signup: 1, purchase: 2 };
/** The track/conversion fields the sandbox interprets. */
const TRACKED_FIELDS = new Set([
	'event_name',
	'invited_user_id',
	'invite_code',
	'invited_user_name',
	'click_id',
	'transaction_id',
	'conversion_value',
]);
const CUSTOM_EVENT_TYPE = 3;

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
		/**
		 * Every Refund request by transaction id and how it was answered: applied, already refunded
		 * (a repeat), or refused (not found, invalid): what the queue-mode storm is checked against.
		 * @type {Map<string, { applied: number, alreadyRefunded: number, refused: number }>}
		 */
		this.refundLedger = new Map();
		this.nextId = 1;
		for (const p of seed.promoters) this.addPromoter(p);
		for (const c of seed.conversions) this.addSeedConversion(c);
	}

	/** @param {SeedPromoter} seed */
	addPromoter(seed) {
		const affiliateId = this.nextId++;
		/** @type {Promoter} */
		const promoter = {
			...seed,
			stringId: `ps_${shortHash(`${seed.product}|${seed.userId}`)}`,
			affiliateId,
			themeMode: 'light',
		};
		this.promoters.set(`${seed.product}|${seed.userId}`, promoter);
		const campaign = this.products.get(seed.product)?.referralCampaign;
		if (campaign) {
			for (const code of [seed.referralCode, ...seed.extraLinks.map((l) => l.inviteCode)]) {
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
			seed.product,
			campaign.id,
			promoter.affiliateId,
			seed.event,
			seed.invitedUserId,
			seed.transactionId ?? null,
			seed.valueCents ?? 0,
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
	 * @param {string} product @param {number} campaignId @param {number} affiliateId @param {string} eventName
	 * @param {string} invitedUserId @param {string|null} transactionId @param {number} valueCents @param {number} createdAt
	 */
	createConversion(
		product,
		campaignId,
		affiliateId,
		eventName,
		invitedUserId,
		transactionId,
		valueCents,
		createdAt,
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

	/**
	 * The product's referral campaign and the promoter `promoterUserId` in it (by default the
	 * product's first promoter with a referral code), for test data attributed to them.
	 * @param {string} product @param {string} [promoterUserId]
	 */
	referral(product, promoterUserId) {
		const campaign = /** @type {Product} */ (this.products.get(product)).referralCampaign;
		const promoter =
			promoterUserId === undefined
				? [...this.promoters.values()].find((p) => p.product === product && p.referralCode !== null)
				: this.findPromoter(product, promoterUserId);
		if (!campaign || !promoter)
			throw new Error(`${product} has no referral campaign with a promoter`);
		return { product, campaignId: campaign.id, affiliateId: promoter.affiliateId };
	}

	/**
	 * A signup of `userId` through `referral`, at the sandbox's now.
	 * @param {ReturnType<SandboxState['referral']>} referral @param {string} userId
	 */
	signUpThrough(referral, userId) {
		const { product, campaignId, affiliateId } = referral;
		this.createConversion(product, campaignId, affiliateId, 'signup', userId, null, 0, this.now());
	}

	/**
	 * Test and benchmark data: `count` refundable purchases of a new signed-up user each, with
	 * one pending reward, attributed to the promoter `promoterUserId` (by default the product's
	 * first promoter with a referral code).
	 * @param {string} product @param {number} count @param {string} prefix @param {string} [promoterUserId]
	 * @returns {string[]} their transaction ids
	 */
	addPurchases(product, count, prefix = 'bulk', promoterUserId) {
		const referral = this.referral(product, promoterUserId);
		const { campaignId, affiliateId } = referral;
		return Array.from({ length: count }, (_, i) => {
			const transactionId = `${prefix}_${i}`;
			const userId = `${prefix}_user_${i}`;
			this.signUpThrough(referral, userId);
			const purchase = this.createConversion(
				product,
				campaignId,
				affiliateId,
				'purchase',
				userId,
				transactionId,
				1000,
				this.now(),
			);
			this.addReward(purchase, null, 100, 'pending');
			return transactionId;
		});
	}

	/**
	 * Test data: `count` new users signed up through the product's first promoter with a referral
	 * code, whose purchases a test then tracks.
	 * @param {string} product @param {number} count @param {string} prefix
	 * @returns {string[]} their user ids in the product
	 */
	addSignups(product, count, prefix) {
		const referral = this.referral(product);
		return Array.from({ length: count }, (_, i) => {
			const userId = `${prefix}_user_${i}`;
			this.signUpThrough(referral, userId);
			return userId;
		});
	}

	/**
	 * Test control: new activity of a promoter, as the hosted service would record it: clicks on
	 * its links, paying customers (a signup and a purchase with a pending reward each) and funds
	 * credited to its wallet.
	 * @param {string} product @param {string} userId
	 * @param {{ clicks?: number, payingCustomers?: number, credit?: { currency: string, cents: number } }} activity
	 */
	addActivity(product, userId, activity) {
		const promoter = this.findPromoter(product, userId);
		if (!promoter) throw new Error(`${userId} is not a promoter of ${product}`);
		for (let i = 0; i < (activity.clicks ?? 0); i++) promoter.clicks.push(this.now());
		if ((activity.payingCustomers ?? 0) > 0) {
			this.addPurchases(product, activity.payingCustomers ?? 0, `activity_${this.nextId}`, userId);
		}
		if (activity.credit) {
			promoter.wallet.push({
				currency: activity.credit.currency,
				availableCents: activity.credit.cents,
				withdrawingCents: 0,
			});
		}
	}

	/**
	 * Benchmark data: `count` promoters `${prefix}_0` … of a product, as Promoter Login makes them.
	 * @param {string} product @param {number} count @param {string} prefix @returns {string[]} their user ids
	 */
	addPromoters(product, count, prefix) {
		return Array.from({ length: count }, (_, i) => {
			const userId = `${prefix}_${i}`;
			const answer = this.promoterLogin(product, { user_id: userId });
			if (answer.code !== 0) throw new Error(answer.message);
			return userId;
		});
	}

	/** @param {Conversion} c */
	static isPaidType(c) {
		return c.eventName === 'purchase' || (c.eventName !== 'signup' && c.valueCents > 0);
	}

	// ---- authorization relay -------------------------------------------------------------

	/**
	 * Endpoints 1, 2 and 4. `sourceField` is the name under which the promoting product arrives.
	 * @param {string} callerProduct @param {Record<string, unknown>} input @param {'product_key'|'source_product_key'} sourceField @param {boolean} debug
	 * @returns {Envelope}
	 */
	issueAuthCode(callerProduct, input, sourceField, debug) {
		for (const field of [sourceField, 'target_product_key', 'user_id']) {
			if (!isNonEmptyString(input[field]))
				return fail(CODE.invalid, `The ${field} field is required`);
		}
		if (input.extra !== undefined && !isPlainObject(input.extra))
			return fail(CODE.invalid, 'The extra field must be an object');
		const source = String(input[sourceField]);
		if (!this.products.has(source) || (!debug && source !== callerProduct)) {
			return fail(
				CODE.notFound,
				`The product ${source} does not exist or does not belong to this API key`,
			);
		}
		const target = this.products.get(String(input.target_product_key));
		if (!target) return fail(CODE.notFound, 'The authorization target product does not exist');
		if (!target.promotionUrl)
			return fail(CODE.other, 'The target product has no promotion URL configured');
		if (!target.affiliateCampaign || target.affiliateCampaign.state !== 'in_progress') {
			return fail(CODE.other, 'The target product has no affiliate campaign in progress');
		}
		const psRef = this.relayRef(source, target);
		const code = crypto.randomBytes(16).toString('hex');
		const extra = /** @type {Record<string, unknown>} */ (input.extra ?? {});
		const userId = String(input.user_id);
		this.authCodes.set(code, {
			target: target.key,
			source,
			userKey: `uk_${shortHash(`${source}|${userId}`)}`,
			userName:
				typeof extra.name === 'string' ? extra.name : `user_${shortHash(userId).slice(0, 6)}`,
			extra,
			locale: typeof extra.locale === 'string' ? extra.locale : 'en',
			psRef,
			expiresAt: this.now() + AUTH_CODE_TTL_MS,
			redeemed: false,
			debug,
		});
		const redirectUrl = `${target.promotionUrl}?ps_ref=${encodeURIComponent(psRef)}&x_auth_code=${code}`;
		return ok({ code, redirect_url: redirectUrl });
	}

	/** The promoting product's promoter relationship with the target, made on the first relay. @param {string} source @param {Product} target */
	relayRef(source, target) {
		const userId = `product:${source}`;
		const key = `${target.key}|${userId}`;
		let relay = this.promoters.get(key);
		if (!relay) {
			relay = this.addPromoter({
				product: target.key,
				userId,
				status: 'approved',
				lang: 'en',
				referralCode: null,
				joinedAt: this.now(),
				extraLinks: [],
				wallet: [],
				clicks: [],
			});
		}
		const psRef = `rl_${shortHash(key)}`;
		this.refs.set(psRef, {
			product: target.key,
			affiliateId: relay.affiliateId,
			campaignId: /** @type {{id:number}} */ (target.affiliateCampaign).id,
		});
		return psRef;
	}

	/** Endpoint 3. @param {string} callerProduct @param {Record<string, unknown>} input @returns {Envelope} */
	exchangeCode(callerProduct, input) {
		if (!isNonEmptyString(input.code)) return fail(CODE.invalid, 'The code field is required');
		const entry = this.authCodes.get(String(input.code));
		if (!entry) return fail(CODE.notFound, 'The authorization code does not exist');
		if (entry.redeemed) return fail(CODE.invalid, 'The authorization code has already been used');
		if (this.now() > entry.expiresAt)
			return fail(CODE.invalid, 'The authorization code has expired');
		if (entry.target !== callerProduct)
			return fail(CODE.invalid, 'The authorization code does not belong to this product');
		entry.redeemed = true;
		const source = /** @type {Product} */ (this.products.get(entry.source));
		return ok({
			user_key: entry.userKey,
			user_name: entry.userName,
			ref: source.name,
			ref_product_key: source.key,
			locale: entry.locale,
			extra: entry.extra,
		});
	}

	// ---- conversions ----------------------------------------------------------------------

	/** Endpoint 5. @param {string} product @param {Record<string, unknown>} input @returns {Envelope} */
	trackConversion(product, input) {
		if (!isNonEmptyString(input.event_name))
			return fail(CODE.invalid, 'The event_name field is required');
		if (!isNonEmptyString(input.invited_user_id))
			return fail(CODE.invalid, 'The invited_user_id field is required');
		const eventName = String(input.event_name);
		const invitedUserId = String(input.invited_user_id);
		const signup = this.conversions.find(
			(c) => c.product === product && c.invitedUserId === invitedUserId && c.eventName === 'signup',
		);
		if (eventName === 'signup') {
			if (!isNonEmptyString(input.invite_code))
				return fail(CODE.invalid, 'The invite_code field is required');
			if (signup) return fail(CODE.invalid, 'The conversion event already exists');
			const ref = this.refs.get(String(input.invite_code));
			if (!ref || ref.product !== product)
				return fail(
					CODE.notFound,
					'The invite code does not match any promotion link of this product',
				);
			if (!this.campaignInProgress(product, ref.campaignId))
				return fail(CODE.other, 'No campaign is available for this conversion');
			const c = this.createConversion(
				product,
				ref.campaignId,
				ref.affiliateId,
				'signup',
				invitedUserId,
				null,
				0,
				this.now(),
			);
			return ok(this.conversionData(c));
		}
		if (!signup)
			return fail(
				CODE.invalid,
				'No signup was reported for this invited user; report the signup first',
			);
		const transactionId = input.transaction_id;
		if (
			transactionId !== undefined &&
			!(typeof transactionId === 'string' || Number.isInteger(transactionId))
		) {
			return fail(CODE.invalid, 'The transaction_id field has an invalid format');
		}
		if (
			eventName === 'purchase' &&
			(transactionId === undefined || String(transactionId).trim() === '')
		) {
			return fail(CODE.invalid, 'The transaction_id field is required');
		}
		const value = input.conversion_value;
		if (
			value !== undefined &&
			(typeof value !== 'number' || !Number.isFinite(value) || value < 0)
		) {
			return fail(CODE.invalid, 'The conversion_value field must be a number not below 0');
		}
		if (!this.campaignInProgress(product, signup.campaignId))
			return fail(CODE.other, 'No campaign is available for this conversion');
		const cents = Math.round((value ?? 0) * 100);
		const c = this.createConversion(
			product,
			signup.campaignId,
			signup.affiliateId,
			eventName,
			invitedUserId,
			transactionId === undefined ? null : String(transactionId).trim(),
			cents,
			this.now(),
		);
		// Fields the spec does not name ("payload of purchase and custom events: not shown") are
		// kept as they arrived, so that tests can see what a client sent.
		c.otherFields = Object.fromEntries(
			Object.entries(input).filter(([name]) => !TRACKED_FIELDS.has(name)),
		);
		if (SandboxState.isPaidType(c)) {
			const reward = this.addReward(c, null, Math.round(cents / 10), 'pending');
			this.addReward(c, reward.id, Math.round(cents / 50), 'pending');
		}
		return ok(this.conversionData(c));
	}

	/** @param {string} product @param {number} campaignId */
	campaignInProgress(product, campaignId) {
		const p = this.products.get(product);
		const campaign = [p?.affiliateCampaign, p?.referralCampaign].find((c) => c?.id === campaignId);
		return campaign?.state === 'in_progress';
	}

	/** @param {Conversion} c */
	conversionData(c) {
		return {
			conversion_id: c.id,
			campaign_id: c.campaignId,
			affiliate_id: c.affiliateId,
			event_type: c.eventType,
			event_name: c.eventName,
			status: c.status,
		};
	}

	/** Endpoint 6, recorded in the refund ledger. @param {string} product @param {Record<string, unknown>} input @returns {Envelope} */
	refund(product, input) {
		const answer = this.applyRefund(product, input);
		const transactionId = String(input.transaction_id ?? '').trim();
		const entry = this.refundLedger.get(transactionId) ?? {
			applied: 0,
			alreadyRefunded: 0,
			refused: 0,
		};
		const status = /** @type {{ status?: string } | null} */ (answer.data)?.status;
		if (answer.code !== CODE.ok) entry.refused++;
		else if (status === 'APPLIED') entry.applied++;
		else entry.alreadyRefunded++;
		this.refundLedger.set(transactionId, entry);
		return answer;
	}

	/** Endpoint 6, the spec's rules 1 to 6. @param {string} product @param {Record<string, unknown>} input @returns {Envelope} */
	applyRefund(product, input) {
		const raw = input.transaction_id;
		if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === ''))
			return fail(CODE.invalid, 'The transaction_id field is required');
		if (!(typeof raw === 'string' || Number.isInteger(raw)))
			return fail(CODE.invalid, 'The transaction_id field has an invalid format');
		const transactionId = String(raw).trim();
		if (transactionId.length > 255)
			return fail(CODE.invalid, 'The transaction_id field must not exceed 255 characters');
		const reasonRaw = input.reason;
		if (reasonRaw !== undefined && reasonRaw !== null && typeof reasonRaw !== 'string')
			return fail(CODE.invalid, 'The reason field has an invalid format');
		if (typeof reasonRaw === 'string' && reasonRaw.length > 255)
			return fail(CODE.invalid, 'The reason field must not exceed 255 characters');
		const reason = typeof reasonRaw === 'string' && reasonRaw !== '' ? reasonRaw : null;

		const matches = this.conversions.filter(
			(c) => c.product === product && c.transactionId === transactionId,
		);
		if (matches.length === 0)
			return fail(CODE.notFound, 'The conversion for the specified transaction was not found');
		if (matches.length > 1)
			return fail(
				CODE.invalid,
				'Multiple conversion records match the specified transaction_id; the request cannot be processed automatically',
			);
		const conversion = matches[0];
		if (!SandboxState.isPaidType(conversion))
			return fail(CODE.invalid, 'This conversion type does not support refunds or voids');
		if (conversion.voided)
			return fail(
				CODE.other,
				'This conversion has already been voided and cannot be fully refunded again',
			);
		const data = {
			conversion_id: conversion.id,
			transaction_id: transactionId,
			adjustment_type: 1,
			status: 'ALREADY_PROCESSED',
			cancelled_reward_count: 0,
			preserved_paid_reward_count: 0,
			cancelled_sub_reward_count: 0,
			preserved_paid_sub_reward_count: 0,
			adjusted_at: /** @type {string|null} */ (null),
		};
		if (conversion.refundedAt !== null) {
			data.adjusted_at = ymdHisUtc8(conversion.refundedAt);
			return ok(data, 'The conversion was already refunded; nothing changed');
		}
		for (const reward of this.rewards.filter((r) => r.conversionId === conversion.id)) {
			const prefix = reward.parentId === null ? '' : 'sub_';
			if (reward.status === 'paid') {
				data[
					/** @type {'preserved_paid_reward_count'} */ (`preserved_paid_${prefix}reward_count`)
				]++;
			} else if (reward.status === 'pending' || reward.status === 'approved') {
				reward.status = 'rejected';
				reward.note = `API全额退款${reason ? ` ${reason}` : ''}`;
				data[/** @type {'cancelled_reward_count'} */ (`cancelled_${prefix}reward_count`)]++;
			}
		}
		conversion.refundedAt = this.now();
		conversion.adjustments++;
		conversion.reason = reason;
		data.status = 'APPLIED';
		data.adjusted_at = ymdHisUtc8(conversion.refundedAt);
		return ok(data, 'The full refund was applied');
	}

	// ---- promoters ------------------------------------------------------------------------

	/** Endpoint 8. @param {string} product @param {Record<string, unknown>} input @returns {Envelope} */
	promoterLogin(product, input) {
		if (!isNonEmptyString(input.user_id)) return fail(CODE.other, 'The user_id field is required');
		if (
			input.email !== undefined &&
			input.email !== '' &&
			(typeof input.email !== 'string' || !EMAIL.test(input.email))
		) {
			return fail(CODE.other, 'The email address has an invalid format');
		}
		if (input.lang !== undefined && !LANGS.includes(String(input.lang)))
			return fail(CODE.other, `The lang field must be one of: ${LANGS.join(', ')}`);
		if (input.theme_mode !== undefined && !THEMES.includes(String(input.theme_mode)))
			return fail(CODE.other, `The theme_mode field must be one of: ${THEMES.join(', ')}`);
		const p = /** @type {Product} */ (this.products.get(product));
		const campaign = p.referralCampaign;
		if (!campaign || campaign.state !== 'in_progress')
			return fail(CODE.other, 'No referral campaign exists for this product');
		const userId = String(input.user_id);
		let promoter = this.promoters.get(`${product}|${userId}`);
		if (!promoter) {
			const code = `R${shortHash(`${product}|${userId}|code`).slice(0, 7).toUpperCase()}`;
			promoter = this.addPromoter({
				product,
				userId,
				status: 'approved',
				lang: 'en',
				referralCode: code,
				joinedAt: this.now(),
				extraLinks: [],
				wallet: [],
				clicks: [],
			});
		} else if (promoter.referralCode === null) {
			promoter.referralCode = `R${shortHash(`${product}|${userId}|code`).slice(0, 7).toUpperCase()}`;
			promoter.joinedAt = this.now();
			this.refs.set(promoter.referralCode, {
				product,
				affiliateId: promoter.affiliateId,
				campaignId: campaign.id,
			});
		}
		if (typeof input.email === 'string' && input.email !== '') promoter.email = input.email;
		if (isNonEmptyString(input.username)) promoter.username = String(input.username);
		else promoter.username ??= promoter.email ?? `user_${shortHash(userId).slice(0, 8)}`;
		if (isNonEmptyString(input.phone)) promoter.phone = String(input.phone);
		if (input.lang !== undefined) promoter.lang = String(input.lang);
		if (input.theme_mode !== undefined) promoter.themeMode = String(input.theme_mode);
		const token = crypto.randomBytes(24).toString('base64url');
		this.centerTokens.set(token, { product, userId, expiresAt: this.now() + CENTER_TOKEN_TTL_MS });
		return ok({
			token,
			user_string_id: promoter.stringId,
			lang: promoter.lang,
			theme_mode: promoter.themeMode,
		});
	}

	/**
	 * The promoter a hosted promoter center token opens, or undefined when the token is unknown or
	 * expired (the center then shows an expired login, as the spec describes).
	 * @param {string} token
	 */
	promoterForCenterToken(token) {
		const entry = this.centerTokens.get(token);
		if (!entry || entry.expiresAt < this.now()) return undefined;
		const promoter = this.promoters.get(`${entry.product}|${entry.userId}`);
		const product = this.products.get(entry.product);
		return promoter && product ? { promoter, product } : undefined;
	}

	/** @param {string} product @param {string} userId */
	findPromoter(product, userId) {
		const promoter = this.promoters.get(`${product}|${userId}`);
		return promoter && !promoter.userId.startsWith('product:') ? promoter : undefined;
	}

	/** @param {Promoter} promoter */
	promoterObject(promoter) {
		return {
			object: 'promoter',
			user_string_id: promoter.stringId,
			external_user_id: promoter.userId,
			status: promoter.status,
			referral_code: promoter.referralCode,
			joined_at: promoter.joinedAt === null ? null : isoUtc8(promoter.joinedAt),
		};
	}

	/** @param {Promoter} promoter */
	links(promoter) {
		const p = /** @type {Product} */ (this.products.get(promoter.product));
		const campaign = p.referralCampaign;
		if (!campaign || promoter.referralCode === null) return [];
		const domain = p.trackingDomains[promoter.lang] ?? p.trackingDomains.default;
		const intro = campaign.introductions[promoter.lang] ?? campaign.introductions.en;
		const introduction = intro
			? {
					locale: campaign.introductions[promoter.lang] ? promoter.lang : 'en',
					title: intro.title,
					subtitle: intro.subtitle,
				}
			: null;
		const codes = [{ inviteCode: promoter.referralCode, enabled: true }, ...promoter.extraLinks];
		return codes
			.filter((l) => l.enabled)
			.map((l) => ({
				object: 'promotion_link',
				campaign_key: campaign.key,
				campaign_name: campaign.name,
				url: `https://${domain}/${l.inviteCode}`,
				introduction,
			}));
	}

	/** @param {Promoter} promoter @param {number|null} from @param {number|null} to @param {string|null} startDate @param {string|null} endDate */
	statistics(promoter, from, to, startDate, endDate) {
		const p = /** @type {Product} */ (this.products.get(promoter.product));
		const inRange = (/** @type {number} */ t) =>
			(from === null || t >= from) && (to === null || t <= to);
		const campaignId = p.referralCampaign?.id;
		const conversions = this.conversions.filter(
			(c) =>
				c.affiliateId === promoter.affiliateId &&
				c.campaignId === campaignId &&
				inRange(c.createdAt),
		);
		const signups = new Set(
			conversions.filter((c) => c.eventName === 'signup').map((c) => c.invitedUserId),
		);
		const paying = new Set(
			conversions
				.filter((c) => SandboxState.isPaidType(c) && !c.voided && c.refundedAt === null)
				.map((c) => c.invitedUserId),
		);
		const rewards = this.rewards.filter(
			(r) => r.affiliateId === promoter.affiliateId && inRange(r.createdAt),
		);
		const sum = (/** @type {string[]} */ states) =>
			rewards.filter((r) => states.includes(r.status)).reduce((total, r) => total + r.cents, 0);
		return {
			object: 'promoter_statistics',
			clicks: promoter.clicks.filter(inRange).length,
			signups: signups.size,
			paying_customers: paying.size,
			rewards_paid: money(sum(['paid'])),
			rewards_accrued: money(sum(['pending', 'approved', 'paid'])),
			currency: p.currency,
			start_date: startDate,
			end_date: endDate,
		};
	}

	/** @param {Promoter} promoter */
	balances(promoter) {
		const p = /** @type {Product} */ (this.products.get(promoter.product));
		/** @type {Map<string, { available: number, pending: number, withdrawing: number }>} */
		const byCurrency = new Map();
		const entry = (/** @type {string} */ currency) => {
			if (!byCurrency.has(currency))
				byCurrency.set(currency, { available: 0, pending: 0, withdrawing: 0 });
			return /** @type {{ available: number, pending: number, withdrawing: number }} */ (
				byCurrency.get(currency)
			);
		};
		for (const w of promoter.wallet) {
			entry(w.currency).available += w.availableCents;
			entry(w.currency).withdrawing += w.withdrawingCents;
		}
		for (const r of this.rewards) {
			if (
				r.affiliateId === promoter.affiliateId &&
				(r.status === 'pending' || r.status === 'approved')
			)
				entry(r.currency).pending += r.cents;
		}
		if (byCurrency.size === 0) entry(p.currency);
		return [...byCurrency.entries()]
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
			.map(([currency, v]) => ({
				object: 'balance',
				currency,
				available: money(v.available),
				pending: money(v.pending),
				withdrawing: money(v.withdrawing),
			}));
	}

	/**
	 * Endpoints 9 to 12. `query` holds every value given for each name.
	 * @param {string} product @param {string} rawUserId @param {'get'|'links'|'statistics'|'balances'} view @param {Map<string, string[]>} query
	 * @returns {Envelope}
	 */
	readPromoter(product, rawUserId, view, query) {
		let userId;
		try {
			userId = decodeURIComponent(rawUserId);
		} catch {
			return fail(CODE.other, 'The user_id path parameter has an invalid format');
		}
		if (userId === '' || userId.length > 255)
			return fail(CODE.other, 'The user_id path parameter has an invalid format');
		if (view === 'get') {
			const expand = query.get('expand');
			/** @type {string[]} */
			let wanted = [];
			if (expand !== undefined) {
				if (expand.length !== 1 || query.has('expand[]'))
					return fail(CODE.other, 'The expand parameter has an invalid format');
				wanted = expand[0]
					.split(',')
					.map((v) => v.trim())
					.filter(Boolean);
				const unknown = wanted.find((v) => !['links', 'statistics', 'balances'].includes(v));
				if (unknown !== undefined) return fail(CODE.other, `Unsupported expand value: ${unknown}`);
			} else if (query.has('expand[]')) {
				return fail(CODE.other, 'The expand parameter has an invalid format');
			}
			const promoter = this.findPromoter(product, userId);
			if (!promoter) return fail(CODE.notFound, 'The promoter was not found');
			/** @type {Record<string, unknown>} */
			const data = this.promoterObject(promoter);
			if (wanted.includes('links')) data.links = this.links(promoter);
			if (wanted.includes('statistics'))
				data.statistics = this.statistics(promoter, null, null, null, null);
			if (wanted.includes('balances')) data.balances = this.balances(promoter);
			return ok(data);
		}
		/** @type {[number|null, number|null, string|null, string|null]} */
		let range = [null, null, null, null];
		if (view === 'statistics') {
			const [startDate] = query.get('start_date') ?? [];
			const [endDate] = query.get('end_date') ?? [];
			const from = startDate === undefined ? null : parseYmd(startDate);
			if (startDate !== undefined && from === null)
				return fail(CODE.other, 'The start_date parameter must use the Y-m-d format');
			const toStart = endDate === undefined ? null : parseYmd(endDate);
			if (endDate !== undefined && toStart === null)
				return fail(CODE.other, 'The end_date parameter must use the Y-m-d format');
			if (from !== null && toStart !== null && from > toStart)
				return fail(CODE.other, 'The start_date must not be later than the end_date');
			range = [
				from,
				toStart === null ? null : toStart + 24 * 3600 * 1000 - 1,
				startDate ?? null,
				endDate ?? null,
			];
		}
		const promoter = this.findPromoter(product, userId);
		if (!promoter) return fail(CODE.notFound, 'The promoter was not found');
		if (view === 'links') return ok(this.links(promoter));
		if (view === 'balances') return ok(this.balances(promoter));
		return ok(this.statistics(promoter, ...range));
	}
}

module.exports = { SandboxState, CODE, fail, ok };
