import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { request } from 'undici';

import { AffiliateTrackingApi } from '../../credentials/AffiliateTrackingApi.credentials';
import { credentialFor, type Sandbox } from './sandbox';

export interface Call {
	method: 'GET' | 'POST';
	/** Below /api/open/v1; may carry a query string. */
	path: string;
	body?: unknown;
	qs?: IDataObject;
	headers?: IDataObject;
}

export interface Answer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	json: { code: number; message: string; data: Record<string, unknown> } | undefined;
}

/**
 * Signs a call with the credential's own authenticate() and sends the signed request as is
 * (or as `tamper` changes it after signing) with undici.
 */
export async function signedCall(
	sandbox: Sandbox,
	apiKey: string,
	call: Call,
	options: {
		credential?: ICredentialDataDecryptedObject;
		tamper?: (signed: IHttpRequestOptions) => IHttpRequestOptions;
	} = {},
): Promise<Answer> {
	const credential = credentialFor(sandbox, apiKey, options.credential);
	const credentialType = new AffiliateTrackingApi();
	let signed = await credentialType.authenticate(credential, {
		method: call.method,
		url: call.path,
		body: call.body as IHttpRequestOptions['body'],
		qs: call.qs,
		headers: call.headers,
	});
	if (options.tamper) signed = options.tamper(signed);
	const response = await request(signed.url, {
		method: signed.method,
		headers: signed.headers as Record<string, string>,
		body: signed.body as string | undefined,
	});
	const text = await response.body.text();
	let json: Answer['json'];
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.statusCode, headers: response.headers, text, json };
}
