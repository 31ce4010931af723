/**
 * The check of one delivery's signature, over the raw body bytes exactly as received, by the
 * provider's module (providers/). Pure functions (node:crypto only): the node hands them the
 * bytes, the headers, the endpoint's signing secret, the tolerance and the time; they answer with
 * the verdict and, on a refusal, a short reason that holds neither the secret, the body nor any
 * header value.
 */
import { headerValue, refuse, type Verification, type VerificationInput } from './hmac';
import { providerOf, PROVIDERS, type Provider } from './providers';

export { safeEqual, type RequestHeaders, type Verification } from './hmac';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Why `provider` cannot sign with `secret`, or null when it can. The answer never quotes the secret. */
export function secretProblem(provider: Provider, secret: string): string | null {
	if (secret === '') return 'The Signing Secret is empty';
	if (secret !== secret.trim()) return 'The Signing Secret starts or ends with white space';
	return providerOf(provider).secretProblem(secret);
}

/**
 * The providers that can sign with `secret`, by name in the registry's order; when none can, why
 * (each distinct problem once: an empty secret is simply "empty").
 */
export function secretFit(secret: string): { fits: string[]; problems: string[] } {
	const verdicts = PROVIDERS.map(({ option }) => ({
		name: option.name,
		problem: secretProblem(option.value, secret),
	}));
	return {
		fits: verdicts.filter(({ problem }) => problem === null).map(({ name }) => name),
		problems: [...new Set(verdicts.map(({ problem }) => problem).filter((p) => p !== null))],
	};
}

/**
 * Checks one delivery; never throws. A secret the provider cannot sign with is refused with
 * `unusableSecret` (the node reports a setup error); every fault of the delivery is a refusal.
 */
export function verifyDelivery(input: VerificationInput & { provider: Provider }): Verification {
	const problem = secretProblem(input.provider, input.secret);
	if (problem !== null) return { valid: false, reason: problem, unusableSecret: true };
	const { signatureHeader, verify } = providerOf(input.provider);
	const header = headerValue(input.headers, signatureHeader);
	if (header === undefined || header.trim() === '')
		return refuse(`missing ${signatureHeader} header`);
	return verify(input, header);
}
