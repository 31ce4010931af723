/**
 * The credential test of an App Store Server API key (the Payment Provider API credential for the
 * App Store), offline: every field set, the private key an EC P-256 key that signs a token, the
 * Root Certificate (tests only) a certificate no rule refuses.
 * A root that replaces Apple's is named, as the Payment Webhook Trigger's credential test names it.
 */
import type { ICredentialDataDecryptedObject, INodeCredentialTestResult } from 'n8n-workflow';

import {
	replacedRootOf,
	rootProblem,
	trustedRoot,
} from '../../PaymentWebhookTrigger/providers/appStore/notification';
import { appStoreToken, privateKeyOf } from './appStoreToken';

const REQUIRED = [
	['issuerId', 'Issuer ID'],
	['keyId', 'Key ID'],
	['privateKey', 'Private Key'],
	['bundleId', 'Bundle ID'],
] as const;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export function appStoreKeyCheck(data: ICredentialDataDecryptedObject): INodeCredentialTestResult {
	const missing = REQUIRED.filter(([field]) => text(data[field]) === '').map(([, label]) => label);
	if (missing.length > 0) return { status: 'Error', message: `Set ${missing.join(', ')}` };
	const key = privateKeyOf(text(data.privateKey));
	if ('problem' in key) return { status: 'Error', message: key.problem };
	const rootCa = text(data.rootCa);
	if (trustedRoot(rootCa) === null) {
		return { status: 'Error', message: 'The Root Certificate is not a PEM certificate' };
	}
	const refused = rootProblem(rootCa);
	if (refused !== null) return { status: 'Error', message: refused };
	// Signs a token as each request will (the key works with node:crypto's ES256).
	appStoreToken(
		{
			issuerId: text(data.issuerId),
			keyId: text(data.keyId),
			privateKey: text(data.privateKey),
			bundleId: text(data.bundleId),
		},
		0,
	);
	const replaced = replacedRootOf(rootCa);
	const note =
		replaced === null
			? ''
			: ` Note: its Root Certificate replaces ${replaced.pinned}, for tests only (Environment Sandbox): notifications signed under "${replaced.subject}" (SHA-256 ${replaced.fingerprint256}) are taken as Apple's; the node refuses it with Environment Production.`;
	return {
		status: 'OK',
		message: `The key signs App Store Server API tokens for ${text(data.bundleId)}; Apple checks it on the first run (nothing was sent).${note}`,
	};
}
