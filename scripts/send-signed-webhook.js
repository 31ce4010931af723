#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run send:webhook -- <url> <refund|purchase> <transaction ID> [user ID] [--partial] [--provider stripe]`:
 * posts a payment provider's event to a Payment Webhook Trigger, signed with the demo signing
 * secret that `npm start` imports (harness/n8nCore/paymentSignatures.js), and prints the answer. Add
 * `--unsigned` to see the 401 a forged delivery gets.
 */
const { parseArgs } = require('node:util');

const {
	PROVIDERS,
	sampleEvent,
	signWithTestSecret,
} = require('../harness/n8nCore/paymentSignatures');

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
	const provider = /** @type {import('../harness/n8nCore/paymentSignatures').Provider} */ (
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
	const body = JSON.stringify(
		sampleEvent(provider, kind, { transactionId, userId, partial: values.partial }),
	);
	const headers = values.unsigned ? {} : signWithTestSecret(provider, body);
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', ...headers },
		body,
	});
	console.log(`${answer.status} ${await answer.text()}`);
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
