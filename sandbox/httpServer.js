// @ts-check
'use strict';
/**
 * The HTTP server both emulations (the service's, server.js, and the providers',
 * providerApis/server.js) are, as subclasses of HttpService: a handler whose failure answers 500 naming `name`, every open
 * connection tracked so that stopping ends them at once instead of waiting for keep-alives.
 */
const http = require('node:http');

/**
 * Listens on `host`:`port` (0: a free port).
 * @param {string} name @param {(req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>} handle
 * @param {{ port: number, host: string, keepAliveTimeoutMs?: number }} where
 */
async function startHttpServer(name, handle, { port, host, keepAliveTimeoutMs }) {
	const server = http.createServer((req, res) => {
		handle(req, res).catch((error) => {
			if (res.headersSent) return;
			res.writeHead(500, { 'Content-Type': 'text/plain' });
			res.end(`${name} error: ${error instanceof Error ? error.message : String(error)}`);
		});
	});
	if (keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = keepAliveTimeoutMs;
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => resolve(undefined));
	});
	const address = server.address();
	return {
		port: address && typeof address === 'object' ? address.port : port,
		/** Ends every connection and waits for the server to close. */
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(() => resolve(undefined)));
		},
	};
}

/**
 * A server on `host`:`port` (0: a free port), its requests answered by the subclass's `handle`.
 * @abstract
 */
class HttpService {
	/** @param {string} name @param {{ port: number, host: string, keepAliveTimeoutMs?: number }} where */
	constructor(name, { port, host, keepAliveTimeoutMs }) {
		this.serviceName = name;
		this.port = port;
		this.host = host;
		this.keepAliveTimeoutMs = keepAliveTimeoutMs;
		/** @type {Awaited<ReturnType<typeof startHttpServer>> | null} */
		this.listening = null;
	}

	get url() {
		return `http://${this.host}:${this.port}`;
	}

	/** @returns {Promise<string>} the base URL */
	async start() {
		const { port, host, keepAliveTimeoutMs } = this;
		const handle = (
			/** @type {http.IncomingMessage} */ req,
			/** @type {http.ServerResponse} */ res,
		) => this.handle(req, res);
		this.listening = await startHttpServer(this.serviceName, handle, {
			port,
			host,
			keepAliveTimeoutMs,
		});
		this.port = this.listening.port;
		return this.url;
	}

	async stop() {
		const listening = this.listening;
		this.listening = null;
		await listening?.stop();
	}

	/**
	 * Answers one request.
	 * @param {http.IncomingMessage} _req @param {http.ServerResponse} _res @returns {Promise<unknown>}
	 */
	async handle(_req, _res) {
		throw new Error(`${this.serviceName} answers no request`);
	}
}

module.exports = { HttpService };
