/** What the contract tests share: keys, a header change after signing, a relay code, a balance. */
import type { IHttpRequestOptions } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/server';
import { signedCall, type Call } from '../../support/services/client';

export const V2 = 'pk_test_videomax_v2';
export const V1 = 'pk_test_videomax_v1';

export function withHeaders(change: (headers: Record<string, string>) => void) {
	return (signed: IHttpRequestOptions): IHttpRequestOptions => {
		const headers = { ...(signed.headers as Record<string, string>) };
		change(headers);
		return { ...signed, headers };
	};
}

export const relayBody = {
	product_key: 'prd_photopal',
	target_product_key: 'prd_videomax',
	user_id: 'pp_42',
	extra: { name: 'Ada' },
};

/** Signed POSTs and GETs to `sandbox`, with the v2 key unless told. */
export function sender(sandbox: Sandbox) {
	return {
		post: (path: string, body: unknown, apiKey = V2) =>
			signedCall(sandbox, apiKey, { method: 'POST', path, body }),
		get: (path: string, qs?: Call['qs'], apiKey = V2) =>
			signedCall(sandbox, apiKey, { method: 'GET', path, qs }),
	};
}

/** A one-time code PhotoPal issues for VideoMax (POST /oauth/authorize). */
export async function issueCode(sandbox: Sandbox, apiKey = 'pk_test_photopal_v2') {
	const answer = await sender(sandbox).post('/oauth/authorize', relayBody, apiKey);
	expect(answer.json?.code).toBe(0);
	return answer.json?.data as { code: string; redirect_url: string };
}

export function balance(currency: string, available: string, pending: string, withdrawing: string) {
	return { object: 'balance', currency, available, pending, withdrawing };
}
