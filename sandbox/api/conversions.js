// @ts-check
'use strict';
/**
 * Conversions (endpoint 5: signups, purchases and custom events attributed to a promoter) and
 * full refunds (endpoint 6: the conversion's unpaid rewards rejected, once).
 */
const { CODE, fail, ok, ymdHisUtc8, isNonEmptyString } = require('./envelope');
const { isPaidType } = require('./state');

/**
 * @typedef {import('./state').SandboxState} SandboxState
 * @typedef {import('./state').Conversion} Conversion
 * @typedef {import('./envelope').Envelope} Envelope
 */

/** A transaction id as the spec takes it: a string or an integer. @param {unknown} v */
const isTransactionId = (v) => typeof v === 'string' || Number.isInteger(v);

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

/** Endpoint 5. @param {SandboxState} state @param {string} product @param {Record<string, unknown>} input @returns {Envelope} */
function trackConversion(state, product, input) {
	if (!isNonEmptyString(input.event_name))
		return fail(CODE.invalid, 'The event_name field is required');
	if (!isNonEmptyString(input.invited_user_id))
		return fail(CODE.invalid, 'The invited_user_id field is required');
	const eventName = String(input.event_name);
	const invitedUserId = String(input.invited_user_id);
	const signup = state.conversions.find(
		(c) => c.product === product && c.invitedUserId === invitedUserId && c.eventName === 'signup',
	);
	if (eventName === 'signup') {
		if (!isNonEmptyString(input.invite_code))
			return fail(CODE.invalid, 'The invite_code field is required');
		if (signup) return fail(CODE.invalid, 'The conversion event already exists');
		const ref = state.refs.get(String(input.invite_code));
		if (!ref || ref.product !== product)
			return fail(
				CODE.notFound,
				'The invite code does not match any promotion link of this product',
			);
		if (!state.campaignInProgress(product, ref.campaignId))
			return fail(CODE.other, 'No campaign is available for this conversion');
		return ok(conversionData(state.createConversion(ref, 'signup', invitedUserId)));
	}
	if (!signup)
		return fail(
			CODE.invalid,
			'No signup was reported for this invited user; report the signup first',
		);
	const transactionId = input.transaction_id;
	if (transactionId !== undefined && !isTransactionId(transactionId))
		return fail(CODE.invalid, 'The transaction_id field has an invalid format');
	const noTransaction = transactionId === undefined || String(transactionId).trim() === '';
	if (eventName === 'purchase' && noTransaction)
		return fail(CODE.invalid, 'The transaction_id field is required');
	const value = input.conversion_value;
	if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0))
		return fail(CODE.invalid, 'The conversion_value field must be a number not below 0');
	if (!state.campaignInProgress(product, signup.campaignId))
		return fail(CODE.other, 'No campaign is available for this conversion');
	const cents = Math.round((value ?? 0) * 100);
	const txnId = transactionId === undefined ? null : String(transactionId).trim();
	const c = state.createConversion(signup, eventName, invitedUserId, txnId, cents);
	// Fields the spec does not name ("payload of purchase and custom events: not shown") are
	// kept as they arrived, so that tests can see what a client sent.
	c.otherFields = Object.fromEntries(
		Object.entries(input).filter(([name]) => !TRACKED_FIELDS.has(name)),
	);
	if (isPaidType(c)) {
		const reward = state.addReward(c, null, Math.round(cents / 10), 'pending');
		state.addReward(c, reward.id, Math.round(cents / 50), 'pending');
	}
	return ok(conversionData(c));
}

/** @param {Conversion} c */
function conversionData(c) {
	return {
		conversion_id: c.id,
		campaign_id: c.campaignId,
		affiliate_id: c.affiliateId,
		event_type: c.eventType,
		event_name: c.eventName,
		status: c.status,
	};
}

/** Endpoint 6, the spec's rules 1 to 6. @param {SandboxState} state @param {string} product @param {Record<string, unknown>} input @returns {Envelope} */
function refund(state, product, input) {
	const raw = input.transaction_id;
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === ''))
		return fail(CODE.invalid, 'The transaction_id field is required');
	if (!isTransactionId(raw))
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

	const matches = state.conversions.filter(
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
	if (!isPaidType(conversion))
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
		adjusted_at: conversion.refundedAt === null ? null : ymdHisUtc8(conversion.refundedAt),
	};
	if (conversion.refundedAt !== null)
		return ok(data, 'The conversion was already refunded; nothing changed');
	for (const reward of state.rewards.filter((r) => r.conversionId === conversion.id)) {
		const prefix = reward.parentId === null ? '' : 'sub_';
		if (reward.status === 'paid') {
			data[/** @type {'preserved_paid_reward_count'} */ (`preserved_paid_${prefix}reward_count`)]++;
		} else if (reward.status === 'pending' || reward.status === 'approved') {
			reward.status = 'rejected';
			reward.note = `API全额退款${reason ? ` ${reason}` : ''}`;
			data[/** @type {'cancelled_reward_count'} */ (`cancelled_${prefix}reward_count`)]++;
		}
	}
	conversion.refundedAt = state.now();
	conversion.adjustments++;
	conversion.reason = reason;
	data.status = 'APPLIED';
	data.adjusted_at = ymdHisUtc8(conversion.refundedAt);
	return ok(data, 'The full refund was applied');
}

module.exports = { trackConversion, refund };
