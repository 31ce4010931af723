#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `JWT_PRIVATE_KEY_FILE=<PEM file> node scripts/promoter-center-link.js <user ID> <n8n URL>`:
 * prints the link that opens example (d)'s promoter center for that user, with a token minted by
 * the node:crypto snippet of docs/promoter-center.md, run as the page shows it (so that the
 * snippet users copy is the one proven by test:e2e and the unit tests). The token is ES256, signed
 * with the brand's private key (n8n holds only the public key), for the promoter center only
 * (`aud`), valid 5 minutes: a leaked link opens nothing for long, nor anything else.
 */
const fs = require('node:fs');
const path = require('node:path');

const DOC = path.join(__dirname, '..', 'docs', 'promoter-center.md');
/** The marker line before the snippet's fenced block in the doc. */
const SNIPPET_MARKER = '<!-- promoter-center-token -->';
/** Example (d)'s browser door. */
const LINK_PATH = '/webhook/promoter-center';

/**
 * The doc's snippet, run: its `promoterCenterToken(userId, privateKeyPem)`.
 * @returns {(userId: string, privateKeyPem: string) => string}
 */
function docSnippetMinter() {
	const doc = fs.readFileSync(DOC, 'utf8');
	const snippet = doc.split(SNIPPET_MARKER)[1]?.match(/```js\n([\s\S]*?)\n```/)?.[1];
	if (!snippet) throw new Error(`${DOC} has no \`\`\`js block after ${SNIPPET_MARKER}`);
	return new Function('require', `${snippet}\nreturn promoterCenterToken;`)(require);
}

/**
 * The link a brand page puts in its iframe for `userId`.
 * @param {string} n8nUrl @param {string} token
 */
function promoterCenterLink(n8nUrl, token) {
	return `${n8nUrl.replace(/\/$/, '')}${LINK_PATH}?token=${encodeURIComponent(token)}`;
}

function main() {
	const [userId, n8nUrl] = process.argv.slice(2);
	const keyFile = process.env.JWT_PRIVATE_KEY_FILE;
	if (!userId || !n8nUrl || !keyFile) {
		console.error(
			'usage: JWT_PRIVATE_KEY_FILE=<PEM file> node scripts/promoter-center-link.js <user ID> <n8n URL>',
		);
		process.exit(2);
	}
	const privateKeyPem = fs.readFileSync(keyFile, 'utf8');
	console.log(promoterCenterLink(n8nUrl, docSnippetMinter()(userId, privateKeyPem)));
}

if (require.main === module) main();

module.exports = { docSnippetMinter, promoterCenterLink };
