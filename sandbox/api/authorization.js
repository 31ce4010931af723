// @ts-check
'use strict';
/**
 * The authorization relay (endpoints 1 to 4): a promoting product's user sent to the target
 * product with a one-time code, which the target exchanges for the user's details.
 */
const crypto = require('node:crypto');

const { CODE, fail, ok, shortHash, isNonEmptyString, isPlainObject } = require('./envelope');

/**
 * @typedef {import('./state').SandboxState} SandboxState
 * @typedef {import('./state').Product} Product
 * @typedef {import('./envelope').Envelope} Envelope
 * @typedef {import('./envelope').Redirect} Redirect
 */

const AUTH_CODE_TTL_MS = 10 * 60 * 1000;
/**
 * Endpoints 1, 2 and 4. `sourceField` is the name under which the promoting product arrives.
 * @param {SandboxState} state @param {string} callerProduct @param {Record<string, unknown>} input
 * @param {'product_key'|'source_product_key'} sourceField @param {boolean} debug @returns {Envelope}
 */
function issueAuthCode(state, callerProduct, input, sourceField, debug) {
	for (const field of [sourceField, 'target_product_key', 'user_id']) {
		if (!isNonEmptyString(input[field]))
			return fail(CODE.invalid, `The ${field} field is required`);
	}
	if (input.extra !== undefined && !isPlainObject(input.extra))
		return fail(CODE.invalid, 'The extra field must be an object');
	const source = String(input[sourceField]);
	if (!state.products.has(source) || (!debug && source !== callerProduct))
		return fail(
			CODE.notFound,
			`The product ${source} does not exist or does not belong to this API key`,
		);
	const target = state.products.get(String(input.target_product_key));
	if (!target) return fail(CODE.notFound, 'The authorization target product does not exist');
	if (!target.promotionUrl)
		return fail(CODE.other, 'The target product has no promotion URL configured');
	if (target.affiliateCampaign?.state !== 'in_progress')
		return fail(CODE.other, 'The target product has no affiliate campaign in progress');
	const psRef = relayRef(state, source, target);
	const code = crypto.randomBytes(16).toString('hex');
	const extra = /** @type {Record<string, unknown>} */ (input.extra ?? {});
	const userId = String(input.user_id);
	state.authCodes.set(code, {
		target: target.key,
		source,
		userKey: `uk_${shortHash(`${source}|${userId}`)}`,
		userName: typeof extra.name === 'string' ? extra.name : `user_${shortHash(userId).slice(0, 6)}`,
		extra,
		locale: typeof extra.locale === 'string' ? extra.locale : 'en',
		psRef,
		expiresAt: state.now() + AUTH_CODE_TTL_MS,
		redeemed: false,
		debug,
	});
	const redirectUrl = `${target.promotionUrl}?ps_ref=${encodeURIComponent(psRef)}&x_auth_code=${code}`;
	return ok({ code, redirect_url: redirectUrl });
}

/** The promoting product's promoter relationship with the target, made on the first relay. @param {SandboxState} state @param {string} source @param {Product} target */
function relayRef(state, source, target) {
	const userId = `product:${source}`;
	const key = `${target.key}|${userId}`;
	const relay =
		state.promoters.get(key) ??
		state.addPromoter({ product: target.key, userId, referralCode: null, joinedAt: state.now() });
	const psRef = `rl_${shortHash(key)}`;
	const campaignId = /** @type {{id:number}} */ (target.affiliateCampaign).id;
	state.refs.set(psRef, { product: target.key, affiliateId: relay.affiliateId, campaignId });
	return psRef;
}

/** Endpoint 3. @param {SandboxState} state @param {string} callerProduct @param {Record<string, unknown>} input @returns {Envelope} */
function exchangeCode(state, callerProduct, input) {
	if (!isNonEmptyString(input.code)) return fail(CODE.invalid, 'The code field is required');
	const entry = state.authCodes.get(String(input.code));
	if (!entry) return fail(CODE.notFound, 'The authorization code does not exist');
	if (entry.redeemed) return fail(CODE.invalid, 'The authorization code has already been used');
	if (state.now() > entry.expiresAt)
		return fail(CODE.invalid, 'The authorization code has expired');
	if (entry.target !== callerProduct)
		return fail(CODE.invalid, 'The authorization code does not belong to this product');
	entry.redeemed = true;
	const source = /** @type {Product} */ (state.products.get(entry.source));
	return ok({
		user_key: entry.userKey,
		user_name: entry.userName,
		ref: source.name,
		ref_product_key: source.key,
		locale: entry.locale,
		extra: entry.extra,
	});
}

/**
 * Endpoint 2: the same checks as endpoint 1, answered with a 302 on success.
 * @param {SandboxState} state @param {string} product @param {Map<string, string[]>} query
 * @returns {Envelope | Redirect}
 */
function authorizeAndRedirect(state, product, query) {
	/** @type {Record<string, unknown>} */
	const input = {};
	for (const field of ['product_key', 'target_product_key', 'user_id'])
		input[field] = query.get(field)?.[0];
	const extra = query.get('extra')?.[0];
	if (extra !== undefined && extra !== '') {
		try {
			input.extra = JSON.parse(extra);
		} catch {
			return fail(CODE.invalid, 'The extra field must be a JSON-encoded object');
		}
	}
	const envelope = issueAuthCode(state, product, input, 'product_key', false);
	if (envelope.code !== CODE.ok) return envelope;
	return { redirect: /** @type {{ redirect_url: string }} */ (envelope.data).redirect_url };
}

module.exports = { issueAuthCode, authorizeAndRedirect, exchangeCode };
