#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run send:webhook -- <url> <refund|purchase> <transaction ID> [user ID] [--partial]
 * [--provider stripe] [--unsigned]`: posts a payment provider's event to a Payment Webhook
 * Trigger, signed with the demo signing secret that `npm start` imports
 * (support/payment/paymentSignatures.js), and prints the answer. A Stripe purchase is
 * `checkout.session.completed` with the transaction ID as its PaymentIntent, the event example (h)
 * selects and the one whose refund example (a) reverses. `--unsigned` shows the 401 a forged
 * delivery gets. Exits 1 unless the answer is 2xx.
 *
 * Providers whose check or item needs the provider's hosts use the sandbox's emulations of them:
 * the sandbox at SANDBOX_URL, else at http://127.0.0.1:$SANDBOX_PORT (8787, where `npm start`
 * runs it; support/payment/signer.js). `--provider paypal` names, as PayPal's certificate URL, the test chain the sandbox
 * serves; Google Play (`--provider googlePlay`) is pushed with a token the sandbox's emulated
 * Google mints, which also holds the purchase for the trigger to read.
 */
const { parseArgs } = require('node:util');

const {
	PROVIDERS,
	SIGNERS,
	encodeEvent,
	sampleEvent,
	signWithTestSecret,
} = require('../support/payment/paymentSignatures');
const { runningSandboxUrl } = require('../support/payment/signer');

/**
 * Why a fetch failed, from undici's cause (`fetch failed` alone names nothing): the code and the
 * address of each attempt, such as `ECONNREFUSED 127.0.0.1:5679`.
 * @param {unknown} error
 */
function connectionFailure(error) {
	const cause = error instanceof Error ? error.cause : undefined;
	// A host name with several addresses fails with one error per address.
	const attempts = cause instanceof AggregateError ? cause.errors : [cause];
	const named = attempts.flatMap((attempt) => {
		const { code, address, hostname, port } =
			/** @type {{ code?: string, address?: string, hostname?: string, port?: number }} */ (
				attempt ?? {}
			);
		if (!code) return [];
		const where = address ?? hostname;
		return [where ? `${code} ${where}${port ? `:${port}` : ''}` : code];
	});
	if (named.length > 0) return named.join(', ');
	return cause instanceof Error
		? cause.message
		: error instanceof Error
			? error.message
			: String(error);
}

async function main() {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: {
			provider: { type: 'string', default: 'stripe' },
			partial: { type: 'boolean', default: false },
			unsigned: { type: 'boolean', default: false },
		},
	});
	const [url, kind, transactionId, userId = 'buyer_1'] = positionals;
	const provider = /** @type {import('../support/payment/paymentSignatures').Provider} */ (
		values.provider
	);
	if (
		!url ||
		(kind !== 'refund' && kind !== 'purchase') ||
		!transactionId ||
		!PROVIDERS.includes(provider)
	)
		throw new Error(
			`usage: npm run send:webhook -- <url> <refund|purchase> <transaction ID> [user ID] [--partial] [--provider ${PROVIDERS.join('|')}] [--unsigned]`,
		);
	const event = sampleEvent(provider, kind, {
		transactionId,
		userId,
		partial: values.partial,
		checkout: true,
	});
	const { body, contentType } = encodeEvent(provider, event);
	// A provider whose keys the sandbox holds (Google Play): made at the running sandbox.
	const viaSandbox = SIGNERS[provider].viaSandbox;
	const sent = viaSandbox
		? await viaSandbox(event, runningSandboxUrl())
		: { body, headers: signWithTestSecret(provider, body) };
	const headers = values.unsigned ? {} : sent.headers;
	let answer;
	try {
		answer = await fetch(url, {
			method: 'POST',
			headers: { 'Content-Type': contentType, ...headers },
			body: sent.body,
		});
	} catch (error) {
		throw new Error(`No answer from ${url}: ${connectionFailure(error)}`);
	}
	console.log(`${answer.status} ${await answer.text()}`);
	if (!answer.ok) process.exitCode = 1;
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
