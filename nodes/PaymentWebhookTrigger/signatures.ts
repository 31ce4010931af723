/**
 * The check of one delivery, over the raw body bytes exactly as received, by the provider's module
 * (providers/). Pure functions (node:crypto only): the node hands them the bytes, the headers, the
 * credential's fields, the provider's own parameters, the tolerance and the time; they answer with
 * the verdict and, on a refusal, a short reason that holds neither a secret, the body nor any
 * header value.
 */
import type { ProviderSecrets, Verification, DeliveryRequest } from './provider';
import { moduleOf, nameOf, PROVIDERS, type ProviderRef } from './providers';

export { safeEqual } from './hmac';
export type { DeliveryRequest, ProviderSecrets, RequestHeaders, Verification } from './provider';

export const DEFAULT_TOLERANCE_SECONDS = 300;
/** The widest Timestamp Tolerance: an hour (a wider one would all but switch replay checks off). */
export const MAX_TOLERANCE_SECONDS = 3600;

/** Why `provider` cannot use `secrets`, or null when it can. The answer never quotes a secret. */
export function secretProblem(provider: ProviderRef, secrets: ProviderSecrets): string | null {
	return moduleOf(provider).secretProblem(secrets);
}

/**
 * The providers that can use `secrets`, by name in the registry's order; when none can, why
 * (each distinct problem once: an empty secret is simply "empty").
 */
export function secretFit(secrets: ProviderSecrets): { fits: string[]; problems: string[] } {
	const verdicts = PROVIDERS.map(({ id }) => ({
		name: nameOf(id),
		problem: secretProblem(id, secrets),
	}));
	return {
		fits: verdicts.filter(({ problem }) => problem === null).map(({ name }) => name),
		problems: [...new Set(verdicts.map(({ problem }) => problem).filter((p) => p !== null))],
	};
}

/**
 * Checks one delivery; never throws. Secrets the provider cannot use are refused with
 * `unusableSecret` (the node reports a setup error); every fault of the delivery is a refusal.
 */
export function verifyDelivery(request: DeliveryRequest & { provider: ProviderRef }): Verification {
	const provider = moduleOf(request.provider);
	const problem = provider.secretProblem(request.secrets);
	if (problem !== null) return { valid: false, reason: problem, unusableSecret: true };
	try {
		return provider.verify(request);
	} catch {
		// A module's check throws only on input it did not foresee: refuse, never answer 500.
		return { valid: false, reason: 'the delivery could not be checked' };
	}
}
