/** TEMPORARY: the draft of PROVIDER-API.md until branch `providers` lands its interface. */
import type { RequestHeaders } from './hmac';
import type { JsonObject } from './provider';

export interface ProviderSecrets {
	signingSecret: string;
	publicKey: string;
	publicKeyId: string;
	decryptionKey: string;
	rootCertificate: string;
}
export interface DeliveryRequest {
	rawBody: Uint8Array;
	headers: RequestHeaders;
	secrets: ProviderSecrets;
	settings: Readonly<Record<string, string>>;
	toleranceSeconds: number;
	nowSeconds: number;
}
export type Verification =
	| { valid: true; signedAt: number | null; messageId: string | null; body?: JsonObject }
	| { valid: false; reason: string; unusableSecret?: true; status?: 400 | 401 };

export function checkAge(
	signedAt: number,
	request: Pick<DeliveryRequest, 'nowSeconds' | 'toleranceSeconds'>,
	messageId: string | null,
): Verification {
	const age = request.nowSeconds - signedAt;
	if (Math.abs(age) > request.toleranceSeconds) {
		return { valid: false, reason: `signed ${age} s from now, over the tolerance` };
	}
	return { valid: true, signedAt, messageId };
}
