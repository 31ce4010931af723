// @ts-check
'use strict';
/**
 * A mail server for the end-to-end runs: `smtp-server` (a real SMTP implementation) on a free
 * 127.0.0.1 port, plain SMTP (no TLS, STARTTLS not offered), any user and password accepted. Each
 * message is parsed with `mailparser` and kept before the server answers 250, so a mail n8n's
 * Send Email node reported sent is already in `messages`.
 */
const { SMTPServer } = require('smtp-server');
const { simpleParser } = require('mailparser');

const { freePort } = require('./processes');

class SmtpServer {
	constructor() {
		/** @type {import('mailparser').ParsedMail[]} */
		this.messages = [];
		/** The user names the clients signed in with, one per session that authenticated. */
		this.logins = /** @type {string[]} */ ([]);
		this.port = 0;
		this.server = new SMTPServer({
			secure: false,
			disabledCommands: ['STARTTLS'],
			// AUTH without TLS: loopback only, and the test's own throwaway password.
			allowInsecureAuth: true,
			authOptional: true,
			logger: false,
			onAuth: (auth, _session, callback) => {
				this.logins.push(auth.username ?? '');
				callback(null, { user: auth.username });
			},
			onData: (stream, _session, callback) => {
				simpleParser(stream).then(
					(mail) => {
						this.messages.push(mail);
						callback();
					},
					(error) => callback(error),
				);
			},
		});
	}

	/** Listens on 127.0.0.1 and a free port. */
	async start() {
		this.port = await freePort();
		await new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.port, '127.0.0.1', () => resolve(undefined));
		});
	}

	async stop() {
		await new Promise((resolve) => this.server.close(() => resolve(undefined)));
	}
}

module.exports = { SmtpServer };
