// @ts-check
'use strict';
/**
 * Promoters: login (endpoint 8, which makes a user a promoter and opens the hosted promoter
 * center) and the reads (endpoints 9 to 12: the promoter, its links, statistics and balances).
 */
const crypto = require('node:crypto');

const {
	CODE,
	fail,
	ok,
	money,
	isoUtc8,
	shortHash,
	isNonEmptyString,
	parseYmd,
} = require('./envelope');
const { isPaidType } = require('./state');

/**
 * @typedef {import('./state').SandboxState} SandboxState
 * @typedef {import('./state').Product} Product
 * @typedef {import('./state').Promoter} Promoter
 * @typedef {import('./envelope').Envelope} Envelope
 */

/** The spec does not give a token lifetime; an hour is long enough for a demo and short enough to expire. */
const CENTER_TOKEN_TTL_MS = 60 * 60 * 1000;
const LANGS = ['zh', 'en', 'zh-hk'];
const THEMES = ['light', 'dark'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The referral code Promoter Login gives a user, the same on every run. @param {string} product @param {string} userId */
const referralCodeFor = (product, userId) =>
	`R${shortHash(`${product}|${userId}|code`).slice(0, 7).toUpperCase()}`;

/** Endpoint 8. @param {SandboxState} state @param {string} product @param {Record<string, unknown>} input @returns {Envelope} */
function promoterLogin(state, product, input) {
	if (!isNonEmptyString(input.user_id)) return fail(CODE.other, 'The user_id field is required');
	const { email } = input;
	const invalidEmail = typeof email !== 'string' || !EMAIL.test(email);
	if (email !== undefined && email !== '' && invalidEmail)
		return fail(CODE.other, 'The email address has an invalid format');
	if (input.lang !== undefined && !LANGS.includes(String(input.lang)))
		return fail(CODE.other, `The lang field must be one of: ${LANGS.join(', ')}`);
	if (input.theme_mode !== undefined && !THEMES.includes(String(input.theme_mode)))
		return fail(CODE.other, `The theme_mode field must be one of: ${THEMES.join(', ')}`);
	const p = /** @type {Product} */ (state.products.get(product));
	const campaign = p.referralCampaign;
	if (!campaign || campaign.state !== 'in_progress')
		return fail(CODE.other, 'No referral campaign exists for this product');
	const userId = String(input.user_id);
	const code = referralCodeFor(product, userId);
	let promoter = state.promoters.get(`${product}|${userId}`);
	if (!promoter) {
		promoter = state.addPromoter({ product, userId, referralCode: code, joinedAt: state.now() });
	} else if (promoter.referralCode === null) {
		promoter.referralCode = code;
		promoter.joinedAt = state.now();
		state.refs.set(code, { product, affiliateId: promoter.affiliateId, campaignId: campaign.id });
	}
	if (typeof input.email === 'string' && input.email !== '') promoter.email = input.email;
	if (isNonEmptyString(input.username)) promoter.username = String(input.username);
	else promoter.username ??= promoter.email ?? `user_${shortHash(userId).slice(0, 8)}`;
	if (isNonEmptyString(input.phone)) promoter.phone = String(input.phone);
	if (input.lang !== undefined) promoter.lang = String(input.lang);
	if (input.theme_mode !== undefined) promoter.themeMode = String(input.theme_mode);
	const token = crypto.randomBytes(24).toString('base64url');
	state.centerTokens.set(token, { product, userId, expiresAt: state.now() + CENTER_TOKEN_TTL_MS });
	const { stringId, lang, themeMode } = promoter;
	return ok({ token, user_string_id: stringId, lang, theme_mode: themeMode });
}

/**
 * The promoter a hosted promoter center token opens, or undefined when the token is unknown or
 * expired (the center then shows an expired login, as the spec describes).
 * @param {SandboxState} state @param {string} token
 */
function promoterForCenterToken(state, token) {
	const entry = state.centerTokens.get(token);
	if (!entry || entry.expiresAt < state.now()) return undefined;
	const promoter = state.promoters.get(`${entry.product}|${entry.userId}`);
	const product = state.products.get(entry.product);
	return promoter && product ? { promoter, product } : undefined;
}

/** @param {Promoter} promoter */
function promoterObject(promoter) {
	return {
		object: 'promoter',
		user_string_id: promoter.stringId,
		external_user_id: promoter.userId,
		status: promoter.status,
		referral_code: promoter.referralCode,
		joined_at: promoter.joinedAt === null ? null : isoUtc8(promoter.joinedAt),
	};
}

/** @param {SandboxState} state @param {Promoter} promoter */
function links(state, promoter) {
	const p = /** @type {Product} */ (state.products.get(promoter.product));
	const campaign = p.referralCampaign;
	if (!campaign || promoter.referralCode === null) return [];
	const domain = p.trackingDomains[promoter.lang] ?? p.trackingDomains.default;
	const intro = campaign.introductions[promoter.lang] ?? campaign.introductions.en;
	const locale = campaign.introductions[promoter.lang] ? promoter.lang : 'en';
	const introduction = intro ? { locale, title: intro.title, subtitle: intro.subtitle } : null;
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

/** @param {SandboxState} state @param {Promoter} promoter @param {number|null} from @param {number|null} to @param {string|null} startDate @param {string|null} endDate */
function statistics(state, promoter, from, to, startDate, endDate) {
	const p = /** @type {Product} */ (state.products.get(promoter.product));
	const inRange = (/** @type {number} */ t) =>
		(from === null || t >= from) && (to === null || t <= to);
	const campaignId = p.referralCampaign?.id;
	const conversions = state.conversions.filter(
		(c) =>
			c.affiliateId === promoter.affiliateId && c.campaignId === campaignId && inRange(c.createdAt),
	);
	/** How many invited users have a conversion `counts` counts. @param {(c: import('./state').Conversion) => boolean} counts */
	const users = (counts) => new Set(conversions.filter(counts).map((c) => c.invitedUserId)).size;
	const rewards = state.rewards.filter(
		(r) => r.affiliateId === promoter.affiliateId && inRange(r.createdAt),
	);
	const sum = (/** @type {string[]} */ states) =>
		rewards.filter((r) => states.includes(r.status)).reduce((total, r) => total + r.cents, 0);
	return {
		object: 'promoter_statistics',
		clicks: promoter.clicks.filter(inRange).length,
		signups: users((c) => c.eventName === 'signup'),
		paying_customers: users((c) => isPaidType(c) && !c.voided && c.refundedAt === null),
		rewards_paid: money(sum(['paid'])),
		rewards_accrued: money(sum(['pending', 'approved', 'paid'])),
		currency: p.currency,
		start_date: startDate,
		end_date: endDate,
	};
}

/** @param {SandboxState} state @param {Promoter} promoter */
function balances(state, promoter) {
	const p = /** @type {Product} */ (state.products.get(promoter.product));
	/** @type {Map<string, { available: number, pending: number, withdrawing: number }>} */
	const byCurrency = new Map();
	const entry = (/** @type {string} */ currency) => {
		let sums = byCurrency.get(currency);
		if (!sums) byCurrency.set(currency, (sums = { available: 0, pending: 0, withdrawing: 0 }));
		return sums;
	};
	for (const w of promoter.wallet) {
		entry(w.currency).available += w.availableCents;
		entry(w.currency).withdrawing += w.withdrawingCents;
	}
	const owed = (/** @type {import('./state').Reward} */ r) =>
		r.affiliateId === promoter.affiliateId && ['pending', 'approved'].includes(r.status);
	for (const r of state.rewards.filter(owed)) entry(r.currency).pending += r.cents;
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
 * @param {SandboxState} state @param {string} product @param {string} rawUserId @param {'get'|'links'|'statistics'|'balances'} view @param {Map<string, string[]>} query
 * @returns {Envelope}
 */
function readPromoter(state, product, rawUserId, view, query) {
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
		if (query.has('expand[]') || (expand !== undefined && expand.length !== 1))
			return fail(CODE.other, 'The expand parameter has an invalid format');
		const wanted = (expand?.[0] ?? '')
			.split(',')
			.map((v) => v.trim())
			.filter(Boolean);
		const unknown = wanted.find((v) => !['links', 'statistics', 'balances'].includes(v));
		if (unknown !== undefined) return fail(CODE.other, `Unsupported expand value: ${unknown}`);
		const promoter = state.findPromoter(product, userId);
		if (!promoter) return fail(CODE.notFound, 'The promoter was not found');
		/** @type {Record<string, unknown>} */
		const data = promoterObject(promoter);
		if (wanted.includes('links')) data.links = links(state, promoter);
		if (wanted.includes('statistics'))
			data.statistics = statistics(state, promoter, null, null, null, null);
		if (wanted.includes('balances')) data.balances = balances(state, promoter);
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
		const to = toStart === null ? null : toStart + 24 * 3600 * 1000 - 1;
		range = [from, to, startDate ?? null, endDate ?? null];
	}
	const promoter = state.findPromoter(product, userId);
	if (!promoter) return fail(CODE.notFound, 'The promoter was not found');
	if (view === 'links') return ok(links(state, promoter));
	if (view === 'balances') return ok(balances(state, promoter));
	return ok(statistics(state, promoter, ...range));
}

module.exports = { promoterLogin, promoterForCenterToken, readPromoter };
