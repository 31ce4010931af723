// @ts-check
'use strict';
/**
 * A stand-in for a language model: an OpenAI-compatible chat completions server on 127.0.0.1
 * whose answers are scripted, so that n8n's real AI Agent can be exercised without a model.
 *
 * Turn 1 (no tool result yet): it calls the tool whose name mentions "statistics", with the user ID
 * that follows the word "promoter" in the user's message. Turn 2: it reads the tool's result and
 * writes the figures into its reply. Every request is kept for the test to inspect.
 */
const assert = require('node:assert/strict');
const http = require('node:http');

const { readPromoter } = require('../../sandbox');

/**
 * @typedef {{ role: string, content?: string | null, tool_calls?: { id: string, function: { name: string, arguments: string } }[], tool_call_id?: string }} Message
 * @typedef {{ model: string, messages: Message[], tools?: { function: { name: string, description?: string, parameters?: unknown } }[], stream?: boolean }} ChatRequest
 */

/** The figures of a statistics answer, whatever shape the tool result takes. @param {string} content */
function statisticsIn(content) {
	/** @type {unknown} */
	let parsed;
	try {
		parsed = JSON.parse(content);
	} catch {
		return undefined;
	}
	const candidates = Array.isArray(parsed) ? parsed : [parsed];
	return /** @type {Record<string, unknown> | undefined} */ (
		candidates.find(
			(entry) => entry !== null && typeof entry === 'object' && 'paying_customers' in entry,
		)
	);
}

/**
 * The sandbox's own answer to a read of a promoter of `product` (its statistics unless `view`
 * says), with `query`'s parameters.
 * @param {import('../../sandbox').Sandbox} sandbox @param {string} product @param {string} userId
 * @param {Record<string, string>} [query] @param {'statistics' | 'get'} [view]
 * @returns {{ code: number, message?: unknown, data: any }}
 */
function sandboxRead(sandbox, product, userId, query = {}, view = 'statistics') {
	const parameters = new Map(Object.entries(query).map(([name, value]) => [name, [value]]));
	return readPromoter(sandbox.state, product, userId, view, parameters);
}

/** The reply the model writes from a statistics answer. @param {Record<string, unknown>} figures */
function replyWith(figures) {
	return `The promoter has ${figures.clicks} clicks, ${figures.signups} signups and ${figures.paying_customers} paying customers; rewards accrued ${figures.rewards_accrued} ${figures.currency}, paid ${figures.rewards_paid}.`;
}

/**
 * Asks example (e)'s chat, at `chatUrl`, about a promoter of its own (added to the sandbox with
 * new figures, so that no other read can be taken for the tool's), and returns the promoter, the
 * answer's raw text (for the secret check) and the agent's reply. `authorization` is the chat's
 * login (example (e) asks for Basic Auth).
 * @param {import('../../sandbox').Sandbox} sandbox @param {string} product @param {string} chatUrl
 * @param {string} sessionId @param {string} authorization
 */
async function askAgentAboutNewPromoter(sandbox, product, chatUrl, sessionId, authorization) {
	const [promoter] = sandbox.instrumentation.addPromoters(product, 1, 'agent_asked');
	sandbox.instrumentation.addActivity(product, promoter, { clicks: 2, payingCustomers: 1 });
	const answer = await fetch(chatUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: authorization },
		body: JSON.stringify({
			action: 'sendMessage',
			sessionId,
			chatInput: `How is promoter ${promoter} doing?`,
		}),
		signal: AbortSignal.timeout(60_000),
	});
	const text = await answer.text();
	assert.equal(answer.status, 200, text);
	const reply = /** @type {{ output: string }} */ (JSON.parse(text)).output;
	return { promoter, text, reply };
}

/**
 * Checks that the agent's tool ran the node for `promoter` (the sandbox saw exactly that one
 * statistics read, for the range the model asked) and that the reply carries the sandbox's own
 * figures. Returns the read.
 * @param {import('../../sandbox').Sandbox} sandbox @param {string} product @param {string} promoter
 * @param {string} reply
 */
function assertReplyFromSandbox(sandbox, product, promoter, reply) {
	const reads = sandbox.log
		.map((entry) => entry.path)
		.filter((address) => address.includes(`/promoters/${promoter}`));
	assert.deepEqual(reads, [`/api/open/v1/promoters/${promoter}/statistics`]);
	const range = { start_date: '2020-01-01', end_date: '2030-12-31' };
	const figures = sandboxRead(sandbox, product, promoter, range).data;
	assert.equal(reply, replyWith(figures));
	return reads[0];
}

/** @param {ChatRequest} request @returns {{ content: string | null, toolCall?: { name: string, arguments: Record<string, string> } }} */
function answer(request) {
	const toolResult = [...request.messages].reverse().find((message) => message.role === 'tool');
	if (toolResult) {
		const figures = statisticsIn(String(toolResult.content ?? ''));
		if (!figures) return { content: `I could not read the statistics: ${toolResult.content}` };
		return { content: replyWith(figures) };
	}
	const question = [...request.messages].reverse().find((message) => message.role === 'user');
	const userId = /\bpromoter\s+([\w.-]*\w)/i.exec(String(question?.content ?? ''))?.[1];
	const tool = request.tools?.find((candidate) => /statistic/i.test(candidate.function.name));
	if (!userId || !tool) return { content: 'Which promoter (user ID) do you mean?' };
	return {
		content: null,
		toolCall: {
			name: tool.function.name,
			arguments: { userId, startDate: '2020-01-01', endDate: '2030-12-31' },
		},
	};
}

class ScriptedModel {
	constructor() {
		/** @type {ChatRequest[]} */
		this.requests = [];
		/** @type {http.Server | null} */
		this.server = null;
		this.port = 0;
	}

	/** The base URL an OpenAI credential takes ("Base URL"). */
	get url() {
		return `http://127.0.0.1:${this.port}/v1`;
	}

	async start() {
		this.server = http.createServer((req, res) => {
			const chunks = /** @type {Buffer[]} */ ([]);
			req.on('data', (chunk) => chunks.push(chunk));
			req.on('end', () => this.handle(req, res, Buffer.concat(chunks).toString()));
		});
		const server = this.server;
		await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
		const address = server.address();
		if (address && typeof address === 'object') this.port = address.port;
		return this.url;
	}

	async stop() {
		const server = this.server;
		this.server = null;
		if (server) await new Promise((resolve) => server.close(() => resolve(undefined)));
	}

	/** @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {string} body */
	handle(req, res, body) {
		/** @param {number} status @param {object} json */
		const answerJson = (status, json) => {
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(json));
		};
		if (req.method === 'GET' && req.url === '/v1/models')
			return answerJson(200, { object: 'list', data: [{ id: 'scripted-model', object: 'model' }] });
		if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
			return answerJson(404, { error: { message: `no route ${req.method} ${req.url}` } });
		const request = /** @type {ChatRequest} */ (JSON.parse(body));
		this.requests.push(request);
		const { content, toolCall } = answer(request);
		const id = `chatcmpl-${this.requests.length}`;
		const toolCalls = toolCall
			? [
					{
						id: `call_${this.requests.length}`,
						type: 'function',
						function: { name: toolCall.name, arguments: JSON.stringify(toolCall.arguments) },
					},
				]
			: undefined;
		const finishReason = toolCalls ? 'tool_calls' : 'stop';
		const created = Math.floor(Date.now() / 1000);
		if (request.stream) {
			res.writeHead(200, { 'Content-Type': 'text/event-stream' });
			const delta = toolCalls
				? {
						role: 'assistant',
						content: null,
						tool_calls: toolCalls.map((call, index) => ({ index, ...call })),
					}
				: { role: 'assistant', content };
			for (const chunk of [
				{ choices: [{ index: 0, delta, finish_reason: null }] },
				{ choices: [{ index: 0, delta: {}, finish_reason: finishReason }] },
			]) {
				res.write(
					`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, ...chunk })}\n\n`,
				);
			}
			res.end('data: [DONE]\n\n');
			return;
		}
		answerJson(200, {
			id,
			object: 'chat.completion',
			created,
			model: request.model,
			choices: [
				{
					index: 0,
					message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
					finish_reason: finishReason,
				},
			],
			usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
		});
	}
}

module.exports = { ScriptedModel, askAgentAboutNewPromoter, assertReplyFromSandbox, sandboxRead };
