// @ts-check
'use strict';
/**
 * Publishing imported workflows through a running n8n's REST API, as the editor does: one request
 * each. The CLI (`n8n publish:workflow --id=…`) boots n8n once per workflow, about 6 s of a core
 * each, and test:e2e publishes about 20, the matrix about 15 per release.
 */
const assert = require('node:assert/strict');

const { waitUntil } = require('../services/processes');

/** How long n8n 2.x may take to publish in the background. */
const PUBLISHED_WITHIN_MS = 60_000;

/**
 * Waits until n8n's REST API has its routes: n8n 1.x answers /healthz/readiness before it has
 * registered them (`POST /rest/owner/setup` gets 404 there for a moment). `GET /rest/login` then
 * answers 401 without a session.
 * @param {string} base
 */
async function restApiUp(base) {
	await waitUntil(
		() =>
			fetch(`${base}/rest/login`).then(
				(answer) => answer.status !== 404,
				() => false,
			),
		{ timeoutMs: PUBLISHED_WITHIN_MS, intervalMs: 200, what: `n8n's REST API at ${base}/rest` },
	);
}

/**
 * Publishes each of `ids` at its current version, then waits until n8n says each one's trigger is
 * live where it says so (2.x publishes in the background and reports `publication-status`; 1.x has
 * activated the workflow before it answers).
 * @param {{ base: string, cookie: string }} n8n an owner's session
 * @param {string[]} ids
 */
async function publishOverRest({ base, cookie }, ids) {
	/** @param {string} route @param {RequestInit} [init] */
	const rest = async (route, init = {}) => {
		const answer = await fetch(`${base}/rest/workflows/${route}`, {
			...init,
			headers: { cookie, 'Content-Type': 'application/json' },
		});
		const text = await answer.text();
		return { status: answer.status, text };
	};
	/** @param {string} route @param {RequestInit} [init] */
	const data = async (route, init = {}) => {
		const { status, text } = await rest(route, init);
		assert.equal(status, 200, `${init.method ?? 'GET'} ${route}: ${status} ${text.slice(0, 300)}`);
		return /** @type {{ data: Record<string, any> }} */ (JSON.parse(text)).data;
	};
	for (const id of ids) {
		const { versionId } = await data(id);
		const activated = await rest(`${id}/activate`, {
			method: 'POST',
			body: JSON.stringify({ versionId }),
		});
		// n8n before 1.1xx has no such route: its editor's toggle saves `active: true` instead.
		if (activated.status === 404)
			await data(id, { method: 'PATCH', body: JSON.stringify({ active: true, versionId }) });
		else
			assert.equal(
				activated.status,
				200,
				`POST ${id}/activate: ${activated.status} ${activated.text}`,
			);
	}
	if (ids.length === 0 || (await rest(`${ids[0]}/publication-status`)).status === 404) return;
	/** @type {string[]} */
	let pending = [];
	await waitUntil(
		async () => {
			const statuses = await Promise.all(
				ids.map(async (id) => `${id} ${(await data(`${id}/publication-status`)).status}`),
			);
			pending = statuses.filter((status) => !status.endsWith(' published'));
			const failed = pending.filter((status) => / (failed|partial)$/.test(status));
			if (failed.length > 0) throw new Error(`not published: ${failed.join(', ')}`);
			return pending.length === 0;
		},
		{
			timeoutMs: PUBLISHED_WITHIN_MS,
			intervalMs: 100,
			what: `${ids.length} workflows published`,
			detail: () => pending.join(', '),
		},
	);
}

module.exports = { publishOverRest, restApiUp };
