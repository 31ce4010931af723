// @ts-check
'use strict';
/**
 * Demo data of the sandbox. Every key and secret here is a public test fixture that works only
 * against this sandbox.
 */

const PRODUCTS = {
	/** Promoting product: relays its users to VideoMax. */
	photopal: 'prd_photopal',
	/** Promoted product: affiliate and referral campaigns in progress, two tracking domains. */
	videomax: 'prd_videomax',
	/** A product whose campaigns are paused: authorize to it and promoter login fail. */
	paused: 'prd_pausedapp',
};

/** @typedef {{ secret: string, version: 'v1'|'v2', product: string, status?: 'active'|'disabled'|'expired'|'deleted', allowlist?: string[], permissions?: string[] }} SeedKey */

/**
 * A seeded key, VideoMax's unless `more` says otherwise.
 * @param {string} secret @param {'v1'|'v2'} version @param {Partial<SeedKey>} [more]
 * @returns {SeedKey}
 */
const key = (secret, version, more = {}) => ({
	secret,
	version,
	product: PRODUCTS.videomax,
	...more,
});

/** @type {Record<string, SeedKey>} */
const KEYS = {
	pk_test_videomax_v2: key('sk_test_videomax_v2_4f1c9a7e', 'v2'),
	pk_test_videomax_v1: key('sk_test_videomax_v1_8b2d6e30', 'v1'),
	pk_test_photopal_v2: key('sk_test_photopal_v2_93ac51f2', 'v2', { product: PRODUCTS.photopal }),
	pk_test_photopal_v1: key('sk_test_photopal_v1_27e8d4b6', 'v1', { product: PRODUCTS.photopal }),
	pk_test_paused_v2: key('sk_test_paused_v2_5d0f7a11', 'v2', { product: PRODUCTS.paused }),
	pk_test_readonly_v2: key('sk_test_readonly_v2_c3e9b845', 'v2', {
		permissions: ['promoter:read'],
	}),
	pk_test_adjustonly_v2: key('sk_test_adjustonly_v2_61a4f0d9', 'v2', {
		permissions: ['conversion:adjust'],
	}),
	pk_test_disabled_v2: key('sk_test_disabled_v2_0e7b3c52', 'v2', { status: 'disabled' }),
	pk_test_expired_v2: key('sk_test_expired_v2_d94a2f68', 'v2', { status: 'expired' }),
	pk_test_deleted_v2: key('sk_test_deleted_v2_7c15e8a3', 'v2', { status: 'deleted' }),
	/** Allowlisted to a documentation range: requests from loopback are refused. */
	pk_test_allowlist_v2: key('sk_test_allowlist_v2_b8f2c4e0', 'v2', {
		allowlist: ['203.0.113.0/24'],
	}),
	/** Allowlisted to loopback: requests from this machine pass. */
	pk_test_loopback_v2: key('sk_test_loopback_v2_2a6d9e17', 'v2', {
		allowlist: ['127.0.0.1', '::1'],
	}),
};

/** A secret that belongs to no key: signatures made with it fail verification. */
const WRONG_SECRET = 'sk_test_belongs_to_no_key_9d3e1b70';

/** 2026-03-01 10:00:00 UTC+8, the time most seeded records were made. */
const SEED_TIME = Date.parse('2026-03-01T10:00:00+08:00');
const DAY = 24 * 3600 * 1000;

/**
 * A seeded conversion's reward, and the rewards below it.
 * @param {string} status @param {number} cents @param {{ status: string, cents: number }[]} [subRewards]
 */
const reward = (status, cents, subRewards = []) => ({ status, cents, subRewards });

/**
 * A seeded conversion with a transaction and a value (in cents), and its rewards.
 * @param {string} event @param {string} invitedUserId @param {string} transactionId
 * @param {number} valueCents @param {number} createdAt @param {ReturnType<typeof reward>[]} [rewards]
 */
const valued = (event, invitedUserId, transactionId, valueCents, createdAt, rewards = []) => ({
	event,
	invitedUserId,
	transactionId,
	valueCents,
	createdAt,
	rewards,
});

/**
 * A seeded product: its currency and referral campaign may go unsaid.
 * @typedef {Omit<import('./api/state').Product, 'currency' | 'referralCampaign'>
 *   & Partial<import('./api/state').Product>} SeedProduct
 */

/** @returns {import('./api/state').SeedData} */
function seedData() {
	return {
		// In USD and with no referral campaign unless they say.
		products: /** @type {SeedProduct[]} */ ([
			{
				key: PRODUCTS.photopal,
				name: 'PhotoPal',
				promotionUrl: 'https://photopal.example/welcome',
				affiliateCampaign: { id: 101, state: 'in_progress' },
				trackingDomains: { default: 'go.photopal.example' },
			},
			{
				key: PRODUCTS.videomax,
				name: 'VideoMax',
				promotionUrl: 'https://videomax.example/landing',
				affiliateCampaign: { id: 201, state: 'in_progress' },
				referralCampaign: {
					id: 202,
					key: 'cmp_videomax_referral',
					name: 'VideoMax Friends',
					state: 'in_progress',
					introductions: {
						en: { title: 'Give 20%, get 20%', subtitle: 'Share VideoMax with friends' },
						zh: { title: '邀请好友，各得20%', subtitle: '分享 VideoMax' },
					},
				},
				trackingDomains: { default: 'go.videomax.example', zh: 'cn.go.videomax.example' },
			},
			{
				key: PRODUCTS.paused,
				name: 'PausedApp',
				currency: 'EUR',
				promotionUrl: 'https://paused.example/start',
				affiliateCampaign: { id: 301, state: 'paused' },
				trackingDomains: { default: 'go.paused.example' },
			},
		]).map((product) => ({ currency: 'USD', referralCampaign: null, ...product })),
		keys: KEYS,
		// Approved and in English unless they say.
		promoters: [
			{
				product: PRODUCTS.videomax,
				userId: 'user_1001',
				email: 'ada@example.com',
				username: 'Ada',
				referralCode: 'ADA2026',
				joinedAt: SEED_TIME - 30 * DAY,
				extraLinks: [
					{ inviteCode: 'ADA-SPRING', enabled: true },
					{ inviteCode: 'ADA-OLD', enabled: false },
				],
				wallet: [
					{ currency: 'USD', availableCents: 12550, withdrawingCents: 2000 },
					{ currency: 'EUR', availableCents: 500, withdrawingCents: 0 },
				],
				clicks: [SEED_TIME - 20 * DAY, SEED_TIME - 2 * DAY, SEED_TIME, SEED_TIME + 5 * DAY],
			},
			{
				product: PRODUCTS.videomax,
				userId: 'user_1002',
				status: 'pending',
				lang: 'zh',
				username: '李雷',
				referralCode: 'LILEI88',
				joinedAt: SEED_TIME - 3 * DAY,
			},
			{
				// Not in the referral campaign: no code, no links, no funds.
				product: PRODUCTS.videomax,
				userId: 'user/with space&ü',
				status: 'unapplied',
				referralCode: null,
				joinedAt: null,
			},
		],
		// Every seeded conversion is VideoMax's, referred by user_1001.
		conversions: [
			// Signup of the buyer, then a purchase with every reward state.
			{ event: 'signup', invitedUserId: 'buyer_1', createdAt: SEED_TIME - 10 * DAY },
			valued('purchase', 'buyer_1', 'txn_1001', 10000, SEED_TIME - 9 * DAY, [
				reward('pending', 1000, [reward('approved', 200), reward('paid', 100)]),
				reward('approved', 500),
				reward('paid', 700),
			]),
			{ event: 'signup', invitedUserId: 'buyer_2', createdAt: SEED_TIME + 1 * DAY },
			valued('purchase', 'buyer_2', 'txn_1002', 4900, SEED_TIME + 2 * DAY, [reward('paid', 490)]),
			{
				...valued('purchase', 'buyer_2', 'txn_voided', 2500, SEED_TIME + 3 * DAY, [
					reward('rejected', 250),
				]),
				voided: true,
			},
			// Two conversions share one transaction id: refund must refuse.
			valued('purchase', 'buyer_1', 'txn_duplicate', 1000, SEED_TIME),
			valued('purchase', 'buyer_2', 'txn_duplicate', 1000, SEED_TIME),
			// A custom event without value: not paid-type.
			valued('trial_started', 'buyer_1', 'txn_trial', 0, SEED_TIME),
			// A numeric transaction id, refundable as the integer 20260301.
			valued('upgrade', 'buyer_1', '20260301', 3000, SEED_TIME, [reward('pending', 300)]),
		].map((conversion) => ({ product: PRODUCTS.videomax, promoter: 'user_1001', ...conversion })),
	};
}

module.exports = { PRODUCTS, KEYS, WRONG_SECRET, seedData };
