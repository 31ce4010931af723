// @ts-check
'use strict';
/**
 * test:e2e, the node as an AI agent's tool: example (e)'s agent with the scripted model, and
 * example (g)'s MCP server called by a real MCP client.
 */
const assert = require('node:assert/strict');

const { MCP_DEMO_TOKEN, readExample } = require('../../support/n8n/n8nDemoData');
const { PRODUCTS } = require('../../sandbox');
const { sandboxRead } = require('../../support/services/scriptedModel');
const { agentRepliesWithSandboxFigures } = require('../triggerAndAgentChecks');
const { example, monthToDateUtc8 } = require('./context');
const { scenario } = require('../../support/scenarios');
const { postJson } = require('../../support/services/processes');

/** @param {import('./context').Started} context */
async function agentChecks(context) {
	const { check, sandbox, model, base, seenOutput } = context;
	await check(scenario('e2e.agent'), async () => {
		const chat = readExample(example('e').file).nodes.find((node) =>
			node.type.endsWith('.chatTrigger'),
		);
		assert.ok(chat, 'example (e) has no chat trigger');
		const line = await agentRepliesWithSandboxFigures({
			sandbox,
			model,
			chatUrl: `${base}/webhook/${chat.webhookId}/chat`,
			session: 'e2e-session',
			seen: seenOutput,
		});
		return `e2e e: ${line}`;
	});

	await check(
		`${scenario('e2e.mcp')}: @modelcontextprotocol/sdk lists the tools and calls Get Promoter Statistics`,
		async () => {
			const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
			const {
				StreamableHTTPClientTransport,
			} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
			const trigger = readExample(example('g').file).nodes.find((node) =>
				String(node.type).endsWith('.mcpTrigger'),
			);
			const endpoint = new URL(`${base}/mcp/${trigger?.parameters.path}`);
			// Without the example's bearer token the server answers nothing.
			const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
			const accept = { Accept: 'application/json, text/event-stream' };
			const anonymous = await postJson(endpoint, list, accept);
			seenOutput.push(await anonymous.text());
			assert.equal(anonymous.status, 403, 'the MCP endpoint answered without the bearer token');
			// A promoter of its own, with figures the client has to bring back.
			const [promoter] = sandbox.instrumentation.addPromoters(PRODUCTS.videomax, 1, 'mcp_asked');
			sandbox.instrumentation.addActivity(PRODUCTS.videomax, promoter, {
				clicks: 4,
				payingCustomers: 2,
			});
			const callsBefore = sandbox.calls.length;
			const client = new Client({ name: 'e2e-mcp-client', version: '1.0.0' });
			const transport = new StreamableHTTPClientTransport(endpoint, {
				requestInit: { headers: { Authorization: `Bearer ${MCP_DEMO_TOKEN}` } },
			});
			await client.connect(transport);
			try {
				const { tools } = await client.listTools();
				seenOutput.push(JSON.stringify(tools));
				const listed = tools.map(
					(tool) => `${tool.name}(${Object.keys(tool.inputSchema.properties ?? {}).join(', ')})`,
				);
				assert.deepEqual(tools.map((tool) => tool.name).sort(), [
					'Get_Promoter',
					'Get_Promoter_Statistics',
				]);
				const range = { startDate: '2020-01-01', endDate: monthToDateUtc8().to };
				const result = await client.callTool({
					name: 'Get_Promoter_Statistics',
					arguments: { userId: promoter, ...range },
				});
				const text = JSON.stringify(result);
				seenOutput.push(text);
				assert.ok(!result.isError, `the tool call failed: ${text}`);
				const content = /** @type {{ type: string, text?: string }[]} */ (result.content);
				/** @type {unknown} */
				const answered = JSON.parse(content.map((part) => part.text ?? '').join(''));
				const [figures] = /** @type {Record<string, unknown>[]} */ (
					Array.isArray(answered) ? answered : [answered]
				);
				const query = { start_date: range.startDate, end_date: range.endDate };
				const expected = sandboxRead(sandbox, PRODUCTS.videomax, promoter, query).data;
				assert.deepEqual(figures, expected);
				const reads = sandbox.calls
					.slice(callsBefore)
					.filter((call) => call.path.includes(`/promoters/${promoter}`));
				assert.equal(reads.length, 1, `reads: ${JSON.stringify(reads)}`);
				assert.deepEqual(
					[reads[0].path, reads[0].signature, reads[0].keyVersion, reads[0].code],
					[`/api/open/v1/promoters/${promoter}/statistics`, 'valid', 'v2', 0],
				);
				return `MCP (Streamable HTTP ${endpoint.pathname}, bearer token; 403 without) tools/list → ${listed.join('; ')}; tools/call Get_Promoter_Statistics(${promoter}) → ${JSON.stringify(figures)}`;
			} finally {
				await client.close();
			}
		},
	);
}

module.exports = { agentChecks };
