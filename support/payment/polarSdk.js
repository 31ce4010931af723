// @ts-check
'use strict';
/**
 * Polar's own webhook verifier (`@polar-sh/sdk`, API version 2026-10, which needs Node 22 or
 * later), for the unit test that holds the Polar provider and its test signer to it.
 */

/**
 * @typedef {{ validateEvent: (body: string | Uint8Array, headers: Record<string, string>, secret: string) => Promise<{ type: string }>, PolarWebhookVerificationError: new (...args: never[]) => Error }} PolarWebhooks
 */

// The package's subpath exports are beyond this repository's `moduleResolution: node`, so the
// module is named through a variable and typed here.
const SDK = '@polar-sh/sdk/2026-10';
/** @type {PolarWebhooks} */
const polarWebhooks = require(SDK).webhooks;

module.exports = { polarWebhooks };
