import type {
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import type { CREDENTIAL_NAME } from '../nodes/shared/transport/credentials';
import { AUTHENTICATION_HINTS } from '../nodes/shared/transport/errors';
import { signRequestOptions } from '../nodes/shared/transport/requestSigner';
import { API_PREFIX } from '../nodes/shared/transport/signing';

/** A code the service never issues: exchanging it changes nothing and only tests the signature. */
export const CREDENTIAL_TEST_CODE = 'n8n-credential-test-code-never-issued';

export class AffiliateTrackingApi implements ICredentialType {
	// Written out, as n8n's lint reads it; its type keeps it equal to CREDENTIAL_NAME.
	readonly name: typeof CREDENTIAL_NAME = 'affiliateTrackingApi';

	displayName = 'Affiliate Tracking API';

	icon: Icon = {
		light: 'file:../icons/affiliateTracking.svg',
		dark: 'file:../icons/affiliateTracking.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-affiliate-tracking/n8n-nodes-affiliate-tracking#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'The service host, without a path (the node appends /api/open/v1). Must use https://; http:// is accepted only for a local sandbox on 127.0.0.1 or localhost.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'pk_…',
			description:
				'The API Key (starts with pk_) from the brand dashboard: product settings → developer integration',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'sk_…',
			description:
				'The API Secret (starts with sk_). It only computes signatures and is never sent.',
		},
		{
			displayName: 'Signature Version',
			name: 'signatureVersion',
			type: 'options',
			options: [
				{
					name: 'V2 (Current)',
					value: 'v2',
					description: 'HMAC-SHA256; every key created since v2 was released',
				},
				{
					name: 'V1 (Legacy)',
					value: 'v1',
					description: 'Keys created before v2; not accepted by Refund and the promoter reads',
				},
			],
			default: 'v2',
			description: 'Fixed per key: the brand dashboard lists the version of each key',
		},
		{
			displayName: 'Promoter Center URL',
			name: 'promoterCenterUrl',
			type: 'string',
			default: '',
			placeholder: 'https://promoter.example.com',
			description:
				'Optional. The hosted promoter center address (https://; its URLs carry the session token); when set, Promoter Login also returns ready-to-open full-page and iframe addresses.',
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return signRequestOptions(credentials, requestOptions, Math.floor(Date.now() / 1000));
	}

	// Any answer but an authentication failure proves that key, secret and version match.
	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{$credentials.baseUrl.replace(/\\/+$/, "")}}${API_PREFIX}`,
			url: '/oauth/getUserByAuthorizationCode',
			method: 'POST',
			body: { code: CREDENTIAL_TEST_CODE },
		},
		// Rules compare whole messages, so the permission message (which ends with a name) is left out.
		rules: AUTHENTICATION_HINTS.filter(({ message }) => !message.endsWith(':')).map(
			({ message, hint }): IAuthenticateRuleResponseSuccessBody => ({
				type: 'responseSuccessBody',
				properties: { key: 'message', value: message, message: `${message}. ${hint}` },
			}),
		),
	};
}
