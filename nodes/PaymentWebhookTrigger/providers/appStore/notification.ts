/**
 * One App Store Server Notification V2 delivery, checked offline: the body is
 * `{"signedPayload": <JWS>}`; the notification, its `data.signedTransactionInfo` and
 * `data.signedRenewalInfo` are each Apple's signed data (appleJws.ts). The notification must be for
 * the configured app (bundle ID) and environment, and so must the transaction it carries.
 * The verified content is the decoded notification, with the decoded transaction and renewal
 * info added to `data` as `transactionInfo` and `renewalInfo` (the JWS strings stay).
 */
import type { X509Certificate } from 'node:crypto';

import {
	certificateOf,
	replacedRootOf as replacedOf,
	replacedRootProblem,
} from '../../certificates';
import { objectAt, textAt, type JsonObject, type ReplacedRoot } from '../../provider';
import { verifySignedData } from './appleJws';
import { APPLE_ROOT_CA_G3_PEM } from './appleRootCaG3';

/** The environments a notification names in `environment`, as Apple spells them. */
export const APP_STORE_ENVIRONMENTS = ['Production', 'Sandbox'] as const;

export interface AppStoreSettings {
	bundleId: string;
	environment: string;
}

export type NotificationCheck =
	| { valid: true; signedAt: number; body: JsonObject }
	| { valid: false; reason: string; status?: 400 };

const APPLE_ROOT = certificateOf(APPLE_ROOT_CA_G3_PEM);

/** The root the package pins, by name. */
export const APPLE_ROOT_NAME = 'Apple Root CA - G3';

/** The root a chain must end at: the credential's (tests), else Apple Root CA - G3. */
export function trustedRoot(rootCa: string): X509Certificate | null {
	return rootCa === '' ? APPLE_ROOT : certificateOf(rootCa);
}

export { PUBLISHED_TEST_ROOTS } from '../../certificates';

/**
 * Why the credential's root may not be trusted, or null: a test root whose private key is public,
 * always; any root that replaces Apple's, for Production notifications (`environment` known).
 */
export function rootProblem(rootCa: string, environment?: string): string | null {
	const replaced = replacedRootOf(rootCa);
	if (replaced === null) return null;
	return replacedRootProblem(replaced, {
		selected: environment === 'Production',
		refusal: `The Root Certificate replaces ${APPLE_ROOT_NAME}, which is for tests only: it is refused with Environment Production. Leave the field empty, or pick Environment Sandbox for tests`,
	});
}

/**
 * The credential's root when it is a certificate other than Apple Root CA - G3, named by its
 * subject and SHA-256 fingerprint; null when the credential sets none, Apple's own, or no
 * certificate (a set-up error the provider reports).
 */
export function replacedRootOf(rootCa: string): ReplacedRoot | null {
	return replacedOf(rootCa, {
		name: APPLE_ROOT_NAME,
		fingerprints: APPLE_ROOT === null ? [] : [APPLE_ROOT.fingerprint256],
	});
}

function jsonObjectOf(rawBody: Uint8Array): JsonObject | null {
	try {
		return objectAt(JSON.parse(Buffer.from(rawBody).toString('utf8')));
	} catch {
		return null;
	}
}

/**
 * The app and environment a notification is for. Most carry them in `data`; a summary
 * (RENEWAL_EXTENSION) in `summary`; an external purchase token names only its app, and its ID
 * starts with SANDBOX in the sandbox (as Apple's library reads it).
 */
function appOf(notification: JsonObject): { bundleId: unknown; environment: unknown } {
	const scope = objectAt(notification.data) ?? objectAt(notification.summary);
	if (scope !== null) return { bundleId: scope.bundleId, environment: scope.environment };
	const token = objectAt(notification.externalPurchaseToken);
	const tokenId = textAt(token?.externalPurchaseId);
	return {
		bundleId: token?.bundleId,
		environment: tokenId?.startsWith('SANDBOX') === true ? 'Sandbox' : 'Production',
	};
}

/** Why `payload` is not for the configured app and environment, or null. */
function elsewhere(
	name: string,
	app: { bundleId?: unknown; environment: unknown },
	settings: AppStoreSettings,
): string | null {
	if ('bundleId' in app && app.bundleId !== settings.bundleId) {
		return `${name} is for another app than bundle ID ${settings.bundleId}`;
	}
	if (app.environment !== settings.environment) {
		return `${name} is for another environment than ${settings.environment}`;
	}
	return null;
}

/**
 * Checks one delivery; never throws. 400 for a body that is not a notification at all, 401 (no
 * status) for everything Apple's signature or the settings refuse.
 */
export function checkNotification(
	rawBody: Uint8Array,
	root: X509Certificate,
	settings: AppStoreSettings,
): NotificationCheck {
	const body = jsonObjectOf(rawBody);
	if (typeof body?.signedPayload !== 'string') {
		return { valid: false, reason: 'the body is not {"signedPayload": …}', status: 400 };
	}
	const notification = verifySignedData(body.signedPayload, 'signedPayload', root);
	if (!notification.valid) return notification;
	const { payload } = notification;
	const notificationElsewhere = elsewhere('the notification', appOf(payload), settings);
	if (notificationElsewhere !== null) return { valid: false, reason: notificationElsewhere };

	const data = objectAt(payload.data);
	const decoded: JsonObject = {};
	if (data?.signedTransactionInfo !== undefined) {
		const transaction = verifySignedData(data.signedTransactionInfo, 'signedTransactionInfo', root);
		if (!transaction.valid) return transaction;
		const { bundleId, environment } = transaction.payload;
		const transactionElsewhere = elsewhere('the transaction', { bundleId, environment }, settings);
		if (transactionElsewhere !== null) return { valid: false, reason: transactionElsewhere };
		decoded.transactionInfo = transaction.payload;
	}
	if (data?.signedRenewalInfo !== undefined) {
		const renewal = verifySignedData(data.signedRenewalInfo, 'signedRenewalInfo', root);
		if (!renewal.valid) return renewal;
		// Renewal info names its environment but no app.
		const { environment } = renewal.payload;
		const renewalElsewhere = elsewhere('the renewal info', { environment }, settings);
		if (renewalElsewhere !== null) return { valid: false, reason: renewalElsewhere };
		decoded.renewalInfo = renewal.payload;
	}
	return {
		valid: true,
		signedAt: Math.floor(notification.signedAtMs / 1000),
		body: data === null ? payload : { ...payload, data: { ...data, ...decoded } },
	};
}
