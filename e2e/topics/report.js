// @ts-check
'use strict';
/**
 * test:e2e, the marketing report end to end on the started n8n (`n8n execute` starts no data
 * tables, so everything goes through webhooks): example (d)'s promoter center adds its promoter to
 * "Promoters to report" once; example (b) mails each promoter's statistics as an .xlsx to
 * support/services/smtpServer.js, checked against the sandbox's figures and the data table. Example
 * (b) runs as imported but for its triggers: a Webhook node of the same name stands in for "Try it
 * now", so the test can start it.
 */
const assert = require('node:assert/strict');
const ExcelJS = require('exceljs');

const { importCredentials, importWorkflows } = require('../../support/n8n/n8nInstance');
const {
	promoterCenterKeyPair,
	readExample,
	smtpCredential,
} = require('../../support/n8n/n8nDemoData');
const { docSnippetMinter, promoterCenterLink } = require('../../scripts/promoter-center-link');
const { PRODUCTS, trackConversion } = require('../../sandbox');
const { sandboxRead } = require('../../support/services/scriptedModel');
const { example, monthToDateUtc8 } = require('./context');
const { scenario } = require('../../support/scenarios');

const PROMOTERS_TABLE = 'Promoters to report';
const STATISTICS_TABLE = 'Promoter statistics';
const SHEET = 'Promoter statistics';
/** A user ID the sandbox has no promoter for. */
const UNKNOWN_PROMOTER = 'e2e_not_a_promoter';
/** The workflow the test adds: example (b) and its helpers, each started by a POST to /webhook/<path>. */
const REPORT_WORKFLOW_ID = 'e2eReportExampleB';
/** A helper's webhook path is its node id under e2e-report/. @param {string} id */
const helper = (id) => ({ id, path: `e2e-report/${id}` });
const HELPERS = {
	report: helper('run-example-b'),
	readPromoters: helper('read-promoters'),
	readStatistics: helper('read-statistics'),
	seedPromoters: helper('seed-promoters'),
	clearPromoters: helper('clear-promoters'),
};

/** @typedef {Record<string, string | number | boolean | null>} Row */
/** @typedef {{ id: string, path: string }} Helper */

/**
 * A Webhook node that answers, once the workflow has run, with every item of its last node.
 * @param {string} name @param {Helper} helper
 */
function webhookTrigger(name, helper) {
	return {
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		webhookId: helper.id,
		parameters: {
			httpMethod: 'POST',
			path: helper.path,
			responseMode: 'lastNode',
			responseData: 'allEntries',
			options: {},
		},
	};
}

/**
 * `helper`'s part of the test's workflow: its webhook, then `nodes` one after another, each name
 * prefixed with the helper's id (one workflow holds them all), on row `row` of the canvas.
 * @param {Helper} helper @param {number} row @param {({ name: string } & Record<string, unknown>)[]} nodes
 */
function chain(helper, row, nodes) {
	const all = [
		{ ...webhookTrigger('Start', helper), position: [0, 0] },
		...nodes.map((node) => ({ typeVersion: 1.1, ...node })),
	].map((node, index) => ({
		...node,
		id: `${helper.id}-${index}`,
		name: `${helper.id}: ${node.name}`,
		position: [220 * index, 600 + 200 * row],
	}));
	/** @type {Record<string, { main: { node: string, type: string, index: number }[][] }>} */
	const connections = {};
	for (let i = 0; i + 1 < all.length; i++)
		connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return { nodes: all, connections };
}

/**
 * A Data table node on the table named `table`.
 * @param {string} name @param {string} table @param {Record<string, unknown>} parameters
 */
const dataTable = (name, table, parameters) => ({
	name,
	type: 'n8n-nodes-base.dataTable',
	parameters: {
		resource: 'row',
		dataTableId: { __rl: true, mode: 'name', value: table },
		...parameters,
	},
});

/** Answers with every row of `table`. @param {Helper} helper @param {number} row @param {string} table */
function readTable(helper, row, table) {
	return chain(helper, row, [
		{ ...dataTable('Rows', table, { operation: 'get', returnAll: true }), alwaysOutputData: true },
	]);
}

/** Adds user IDs to "Promoters to report", as a team member would in n8n's table view. @param {string[]} userIds */
function seedPromoters(userIds) {
	return chain(HELPERS.seedPromoters, 2, [
		{
			name: 'User IDs',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ userIds }), options: {} },
		},
		{
			name: 'One per user',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'userIds', options: { destinationFieldName: 'userId' } },
		},
		dataTable('Insert', PROMOTERS_TABLE, {
			operation: 'insert',
			columns: { mappingMode: 'autoMapInputData', value: {}, matchingColumns: [], schema: [] },
			options: {},
		}),
	]);
}

function clearPromoters() {
	return chain(HELPERS.clearPromoters, 3, [
		dataTable('Clear', PROMOTERS_TABLE, { resource: 'table', operation: 'clear' }),
	]);
}

/**
 * Example (b) as imported, its manual trigger replaced by a webhook of the same name and its
 * schedule left out: the test starts the same nodes the team's morning run does.
 */
function exampleBOnAWebhook() {
	const workflow = readExample(example('b').file);
	const triggers = workflow.nodes.filter((node) => String(node.type).endsWith('Trigger'));
	assert.deepEqual(
		triggers.map((node) => node.name),
		['Try it now', 'Every morning at 07:00'],
	);
	const [manual, schedule] = triggers;
	const connections = { ...workflow.connections };
	delete connections[schedule.name];
	return {
		connections,
		nodes: workflow.nodes
			.filter((node) => node !== schedule)
			.map((node) =>
				node === manual ? { ...node, ...webhookTrigger(node.name, HELPERS.report) } : node,
			),
	};
}

/**
 * POSTs to a helper's webhook and returns the items it answers with.
 * @param {import('./context').Started} context @param {Helper} helper @returns {Promise<Row[]>}
 */
async function callHelper({ base, seenOutput }, helper) {
	const answer = await fetch(`${base}/webhook/${helper.path}`, {
		method: 'POST',
		signal: AbortSignal.timeout(60_000),
	});
	const text = await answer.text();
	seenOutput.push(text);
	assert.equal(answer.status, 200, `${helper.path}: ${answer.status} ${text}`);
	const parsed = JSON.parse(text);
	return Array.isArray(parsed) ? parsed : [parsed];
}

/** A data table's rows, through its helper. @param {import('./context').Started} context @param {Helper} helper */
async function rowsOf(context, helper) {
	return (await callHelper(context, helper)).filter((row) => row.id !== undefined);
}

/**
 * The sheet `SHEET` of an .xlsx file as objects keyed by its header row (exceljs, not the SheetJS
 * build n8n writes with).
 * @param {Buffer} bytes
 */
async function sheetRows(bytes) {
	const workbook = new ExcelJS.Workbook();
	// exceljs types its input as an ArrayBuffer; a copy gives one of exactly the file.
	await workbook.xlsx.load(Uint8Array.from(bytes).buffer);
	const sheet = workbook.getWorksheet(SHEET);
	assert.ok(sheet, `no sheet "${SHEET}" in the attachment`);
	const [header, ...body] = /** @type {unknown[][]} */ (sheet.getSheetValues().filter(Boolean));
	return body.map((cells) =>
		Object.fromEntries(
			header
				.slice(1)
				.map((name, index) => [
					String(name),
					/** @type {Row[string] | undefined} */ (cells[index + 1]) ?? null,
				]),
		),
	);
}

/**
 * The one new mail since `before`, with its xlsx attachment read.
 * @param {import("../../support/services/smtpServer").SmtpServer} smtp @param {number} before
 */
async function reportMail(smtp, before) {
	assert.equal(smtp.messages.length, before + 1, 'expected exactly one new mail');
	const mail = smtp.messages[before];
	const { to } = monthToDateUtc8();
	assert.equal(
		mail.attachments.length,
		1,
		`attachments: ${mail.attachments.map((a) => a.filename)}`,
	);
	const [file] = mail.attachments;
	assert.equal(file.filename, `promoter-statistics-${to}.xlsx`);
	assert.equal(
		file.contentType,
		'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	);
	return { mail, rows: await sheetRows(file.content) };
}

/**
 * The periods example (b) reports today, in UTC+8: the month to date and, on the 1st, the whole
 * month just ended (final).
 * @returns {{ month: string, from: string, to: string, final: boolean }[]}
 */
function periodsToday() {
	const { from, to } = monthToDateUtc8();
	const monthToDate = { month: to.slice(0, 7), from, to, final: false };
	if (!to.endsWith('-01')) return [monthToDate];
	const lastDay = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
	return [
		{ month: lastDay.slice(0, 7), from: `${lastDay.slice(0, 8)}01`, to: lastDay, final: true },
		monthToDate,
	];
}

/**
 * A promoter's spreadsheet row for a period as the sandbox answers it: its figures, or for a
 * promoter the service does not know, empty figures and the service's message.
 * @param {import('../../sandbox').Sandbox} sandbox @param {string} userId
 * @param {ReturnType<typeof periodsToday>[number]} period
 */
function expectedRow(sandbox, userId, { month, from, to, final }) {
	const answer = sandboxRead(sandbox, PRODUCTS.videomax, userId, {
		start_date: from,
		end_date: to,
	});
	const known = answer.code === 0;
	const data = /** @type {Record<string, string | number>} */ (answer.data);
	/** @param {string} key @param {(value: string | number) => string | number} [as] */
	const figure = (key, as = (value) => value) => (known ? as(data[key]) : null);
	return {
		message: known ? null : String(answer.message),
		row: {
			Promoter: userId,
			Month: month,
			From: from,
			To: to,
			Final: final,
			Clicks: figure('clicks'),
			Signups: figure('signups'),
			'Paying customers': figure('paying_customers'),
			'Rewards accrued': figure('rewards_accrued', Number),
			'Rewards paid': figure('rewards_paid', Number),
			Currency: figure('currency'),
		},
	};
}

/** @param {Row} row */
const rowKey = (row) => `${row.Promoter} ${row.Month}`;

/**
 * Asserts the spreadsheet's rows: one per promoter in `userIds` and period reported today, each
 * with the sandbox's figures or, for a promoter the service does not know, its message in Error.
 * @param {import('../../sandbox').Sandbox} sandbox @param {Row[]} rows @param {string[]} userIds
 */
function assertSheet(sandbox, rows, userIds) {
	const expected = userIds.flatMap((userId) =>
		periodsToday().map((period) => expectedRow(sandbox, userId, period)),
	);
	assert.deepEqual(rows.map(rowKey).sort(), expected.map(({ row }) => rowKey(row)).sort());
	for (const row of rows) {
		const wanted = expected.find((candidate) => rowKey(candidate.row) === rowKey(row));
		assert.ok(wanted);
		const { Error: error, ...figures } = row;
		assert.deepEqual(figures, wanted.row, `row of ${rowKey(row)}`);
		if (wanted.message === null) assert.equal(error, null, `${rowKey(row)} has an error: ${error}`);
		else
			assert.ok(
				String(error).includes(wanted.message),
				`${rowKey(row)}: Error "${error}" lacks "${wanted.message}"`,
			);
	}
}

/**
 * Asserts that the data table holds the spreadsheet's rows.
 * @param {Row[]} tableRows @param {Row[]} sheet
 */
function assertTableMatchesSheet(tableRows, sheet) {
	const asSheet = tableRows.map((row) => ({
		Promoter: row.promoter,
		Month: row.month,
		From: row.period_start,
		To: row.period_end,
		Clicks: row.clicks,
		Signups: row.signups,
		'Paying customers': row.paying_customers,
		'Rewards accrued': row.rewards_accrued,
		'Rewards paid': row.rewards_paid,
		Currency: row.currency,
		Final: row.final,
		Error: row.error,
	}));
	const order = (/** @type {Row} */ a, /** @type {Row} */ b) => rowKey(a).localeCompare(rowKey(b));
	assert.deepEqual(asSheet.sort(order), [...sheet].sort(order));
}

/** The helpers' webhooks, for `n8n start` to serve before the checks begin. */
function reportWebhooks() {
	return Object.values(HELPERS).map(({ path }) => ({ method: 'POST', path }));
}

/**
 * Before `n8n start` (the CLI and the server share the database): the SMTP credential for the
 * server on `smtpPort`, example (b) on a webhook and the data-table helpers, imported and published.
 * @param {import('./context').Context} context @param {number} smtpPort
 */
async function reportSetup(context, smtpPort) {
	await context.check(
		'report set-up: SMTP credential, example (b) on a webhook and the data-table helpers imported',
		async () => {
			await importCredentials(context.env, [smtpCredential(smtpPort)]);
			// One workflow, so that one publish (a CLI run of several seconds) serves every webhook.
			const parts = [
				exampleBOnAWebhook(),
				readTable(HELPERS.readPromoters, 0, PROMOTERS_TABLE),
				readTable(HELPERS.readStatistics, 1, STATISTICS_TABLE),
				seedPromoters(['user_1002', UNKNOWN_PROMOTER]),
				clearPromoters(),
			];
			const workflow = {
				name: 'e2e: example (b) on a webhook, and the data-table helpers',
				nodes: parts.flatMap((part) => part.nodes),
				connections: Object.assign({}, ...parts.map((part) => part.connections)),
				settings: { executionOrder: 'v1' },
			};
			const report = [{ workflow, id: REPORT_WORKFLOW_ID, publish: true }];
			const later = { publishLater: true };
			context.toPublish.push(...(await importWorkflows(context.env, report, undefined, later)));
			return `smtp://127.0.0.1:${smtpPort} (plain SMTP), one workflow of ${workflow.nodes.length} nodes, ${parts.length} webhooks, to publish once n8n starts`;
		},
	);
}

/**
 * The report's checks on the started n8n.
 * @param {import('./context').Started} context @param {import('../../support/services/smtpServer').SmtpServer} smtp
 */
async function reportChecks(context, smtp) {
	const { check, sandbox, base, seenOutput } = context;
	await check(
		`example d: the promoter center opened twice by a signed-in link → the promoter in "${PROMOTERS_TABLE}" once`,
		async () => {
			const mint = docSnippetMinter();
			for (let visit = 0; visit < 2; visit++) {
				const link = promoterCenterLink(
					base,
					mint('user_1001', promoterCenterKeyPair().privateKeyPem),
				);
				const answer = await fetch(link, {
					redirect: 'manual',
					signal: AbortSignal.timeout(60_000),
				});
				seenOutput.push(await answer.text());
				assert.equal(answer.status, 302);
				const location = answer.headers.get('location') ?? '';
				const token = location.match(/\/promoter-center\/iframe\/(.+)$/)?.[1];
				assert.ok(token && sandbox.state.centerTokens.has(token), location);
			}
			const rows = await rowsOf(context, HELPERS.readPromoters);
			assert.deepEqual(
				rows.map((row) => row.userId),
				['user_1001'],
			);
			return `e2e d: 2 visits of user_1001 → ${rows.length} row in "${PROMOTERS_TABLE}"`;
		},
	);

	const userIds = ['user_1001', 'user_1002', UNKNOWN_PROMOTER];
	/** @type {Row[]} */
	let firstRows = [];
	await check(scenario('e2e.report'), async () => {
		const ada = sandbox.state.promoters.get(`${PRODUCTS.videomax}|user_1001`);
		const signup = trackConversion(sandbox.state, PRODUCTS.videomax, {
			event_name: 'signup',
			invited_user_id: `e2e_buyer_${Date.now()}`,
			invite_code: ada?.referralCode,
		});
		assert.equal(signup.code, 0, `could not seed a signup: ${signup.message}`);
		await callHelper(context, HELPERS.seedPromoters);
		const before = smtp.messages.length;
		await callHelper(context, HELPERS.report);
		const { mail, rows } = await reportMail(smtp, before);
		assertSheet(sandbox, rows, userIds);
		assert.ok(
			Number(rows.find((row) => row.Promoter === 'user_1001' && row.Final === false)?.Signups) >= 1,
			'the signup made today is missing from user_1001',
		);
		firstRows = await rowsOf(context, HELPERS.readStatistics);
		assertTableMatchesSheet(firstRows, rows);
		assert.deepEqual(smtp.logins.slice(-1), ['n8n-e2e']);
		const unknown = rows.find((row) => row.Promoter === UNKNOWN_PROMOTER);
		return `e2e b: mail "${mail.subject}", ${rows.length} xlsx rows = ${firstRows.length} data table rows; ${UNKNOWN_PROMOTER}: "${unknown?.Error}"`;
	});

	await check('example b again the same day: rows updated in place, none added', async () => {
		const before = smtp.messages.length;
		await callHelper(context, HELPERS.report);
		const { rows } = await reportMail(smtp, before);
		assertSheet(sandbox, rows, userIds);
		const again = await rowsOf(context, HELPERS.readStatistics);
		assertTableMatchesSheet(again, rows);
		assert.deepEqual(
			again.map((row) => row.id).sort(),
			firstRows.map((row) => row.id).sort(),
			"the second run changed the rows' ids",
		);
		const line = `REPORT: mail received, xlsx rows ${rows.length}, data table rows ${again.length}, second run added ${again.length - firstRows.length}`;
		console.log(line);
		return line;
	});

	await check(
		`example b with "${PROMOTERS_TABLE}" empty: a mail says so, no attachment`,
		async () => {
			await callHelper(context, HELPERS.clearPromoters);
			const before = smtp.messages.length;
			await callHelper(context, HELPERS.report);
			assert.equal(smtp.messages.length, before + 1, 'expected exactly one new mail');
			const mail = smtp.messages[before];
			assert.equal(mail.attachments.length, 0);
			assert.match(String(mail.subject), /no promoters to report/);
			assert.match(String(mail.text), /has no promoters/);
			assert.equal((await rowsOf(context, HELPERS.readStatistics)).length, firstRows.length);
			return `e2e b: mail "${mail.subject}", no attachment`;
		},
	);
}

/** The user IDs in "Promoters to report". @param {import('./context').Started} context */
async function promotersToReport(context) {
	return (await rowsOf(context, HELPERS.readPromoters)).map((row) => String(row.userId));
}

module.exports = { promotersToReport, reportChecks, reportSetup, reportWebhooks };
