import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IExecuteFunctions,
	type IPollFunctions,
} from 'n8n-workflow';

import type { SignatureVersion } from './signing';

export const CREDENTIAL_NAME = 'affiliateTrackingApi';

/** The n8n contexts that send requests: a node run, and the trigger's poll. */
export type TransportContext = IExecuteFunctions | IPollFunctions;

export interface AffiliateTrackingCredentials {
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
	signatureVersion: SignatureVersion;
	promoterCenterUrl?: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackHost(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * `value` without trailing slashes, checked: https, or plain http only on loopback (a local
 * sandbox), because what travels to it (the signed request; the promoter center's session token,
 * in its URL) would travel readable.
 */
function secureUrl(label: string, value: unknown, example: string): string {
	const url = String(value ?? '')
		.trim()
		.replace(/\/+$/, '');
	const parsed = URL.canParse(url) ? new URL(url) : undefined;
	if (parsed === undefined) {
		throw new Error(
			`${label} "${url}" is not a valid address: enter it as, for example, ${example}`,
		);
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		throw new Error(`${label} must start with https:// (got "${parsed.protocol}")`);
	}
	if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
		throw new Error(
			`${label} must use https://; plain http:// is only allowed for a local sandbox on 127.0.0.1 or localhost`,
		);
	}
	return url;
}

/** Reads and checks the credential's fields. */
export function readCredentials(raw: ICredentialDataDecryptedObject): AffiliateTrackingCredentials {
	const baseUrl = secureUrl('Base URL', raw.baseUrl, 'https://api.example.com');
	const apiKey = String(raw.apiKey ?? '').trim();
	const apiSecret = String(raw.apiSecret ?? '').trim();
	if (apiKey === '' || apiSecret === '') {
		throw new Error('The credential needs both an API Key (pk_…) and an API Secret (sk_…)');
	}
	const signatureVersion: SignatureVersion = raw.signatureVersion === 'v1' ? 'v1' : 'v2';
	const promoterCenterUrl =
		String(raw.promoterCenterUrl ?? '').trim() === ''
			? undefined
			: secureUrl('Promoter Center URL', raw.promoterCenterUrl, 'https://promoter.example.com');
	return {
		baseUrl,
		apiKey,
		apiSecret,
		signatureVersion,
		promoterCenterUrl,
	};
}

export interface LoadedCredentials {
	decrypted: ICredentialsDecrypted;
	parsed: AffiliateTrackingCredentials;
}

/**
 * Credentials are read and decrypted once per node execution, not once per request, and handed
 * to the HTTP helper already decrypted (else it reads them again). In n8n each read is a database
 * query plus decryption (CredentialsHelper.getDecrypted); in n8n-core's test engine, which has no
 * database, a read still costs 0.6-1.0 µs (measured over 20,000 calls).
 */
const credentialsByExecution = new WeakMap<TransportContext, Promise<LoadedCredentials>>();

async function loadCredentials(context: TransportContext): Promise<LoadedCredentials> {
	const data = await context.getCredentials(CREDENTIAL_NAME, 0);
	const reference = context.getNode().credentials?.[CREDENTIAL_NAME];
	let parsed: AffiliateTrackingCredentials;
	try {
		parsed = readCredentials(data);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message, {
			description: 'Fix the Affiliate Tracking API credential.',
		});
	}
	return {
		decrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_NAME,
			data,
		},
		parsed,
	};
}

/** The credential of this execution, read on its first request. */
export async function credentialsOf(context: TransportContext): Promise<LoadedCredentials> {
	let loaded = credentialsByExecution.get(context);
	if (loaded === undefined) {
		loaded = loadCredentials(context);
		credentialsByExecution.set(context, loaded);
	}
	return await loaded;
}

export async function getCredentials(
	context: TransportContext,
): Promise<AffiliateTrackingCredentials> {
	return (await credentialsOf(context)).parsed;
}
