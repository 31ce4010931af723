/**
 * PayPal's signing certificates, fetched once and kept: by URL, at most MOST_ENTRIES of them, each
 * for a day (its own validity dates are checked at every delivery). A URL that gave no
 * certificate is remembered for REFUSED_MS, one whose host did not answer for UNAVAILABLE_MS, and
 * at most NEW_FETCHES_PER_MINUTE URLs are fetched a minute: a stranger who makes up certificate
 * URLs cannot make n8n ask PayPal again and again. Deliveries that need the same URL at once share
 * one fetch.
 */
import { ProviderUnavailableError, type NetworkAnswer, type ProviderNetwork } from '../../provider';

export const KEEP_MS = 24 * 60 * 60 * 1000;
export const REFUSED_MS = 10 * 60 * 1000;
export const UNAVAILABLE_MS = 15 * 1000;
export const MOST_ENTRIES = 64;
export const NEW_FETCHES_PER_MINUTE = 20;
/** A chain of a few certificates is a few KB. */
export const MOST_BYTES = 64 * 1024;
const MINUTE_MS = 60 * 1000;
const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

type Entry =
	| { until: number; certificates: string }
	| { until: number; certificates: null }
	| { until: number; unavailable: string };

/** What an answer gives: the chain, nothing (refused), or that the host is unavailable. */
function outcomeOf(
	answer: NetworkAnswer,
): { certificates: string | null } | { unavailable: string } {
	if (answer.status === 200) {
		const usable = answer.body.length <= MOST_BYTES && PEM.test(answer.body);
		return { certificates: usable ? answer.body : null };
	}
	if (answer.status >= 500 || answer.status === 408 || answer.status === 429) {
		return { unavailable: `PayPal's certificate URL answered ${answer.status}` };
	}
	return { certificates: null };
}

export class CertificateCache {
	private readonly entries = new Map<string, Entry>();
	private readonly pending = new Map<string, Promise<Entry>>();
	/** When each fetch of the last minute started. */
	private fetchTimes: number[] = [];

	/** How many fetches this cache started (for the tests). */
	fetches = 0;

	clear(): void {
		this.entries.clear();
		this.pending.clear();
		this.fetchTimes = [];
		this.fetches = 0;
	}

	/**
	 * The chain at `url` (PEM), or null when it serves none; throws ProviderUnavailableError when
	 * its host does not answer, or too many new URLs came this minute.
	 */
	async certificatesAt(
		url: string,
		nowMs: number,
		network: ProviderNetwork,
	): Promise<string | null> {
		const known = this.entries.get(url);
		const entry =
			known !== undefined && known.until > nowMs
				? known
				: await (this.pending.get(url) ?? this.fetch(url, nowMs, network));
		if ('unavailable' in entry) throw new ProviderUnavailableError(entry.unavailable);
		return entry.certificates;
	}

	private fetch(url: string, nowMs: number, network: ProviderNetwork): Promise<Entry> {
		this.fetchTimes = this.fetchTimes.filter((at) => at > nowMs - MINUTE_MS);
		if (this.fetchTimes.length >= NEW_FETCHES_PER_MINUTE) {
			throw new ProviderUnavailableError(
				`more than ${NEW_FETCHES_PER_MINUTE} PayPal certificate URLs to fetch this minute`,
			);
		}
		this.fetchTimes.push(nowMs);
		this.fetches++;
		const fetching = this.answerOf(url, network).then((outcome) => {
			const entry: Entry =
				'unavailable' in outcome
					? { until: nowMs + UNAVAILABLE_MS, unavailable: outcome.unavailable }
					: outcome.certificates === null
						? { until: nowMs + REFUSED_MS, certificates: null }
						: { until: nowMs + KEEP_MS, certificates: outcome.certificates };
			this.keep(url, entry);
			return entry;
		});
		this.pending.set(url, fetching);
		return fetching.finally(() => this.pending.delete(url));
	}

	private async answerOf(
		url: string,
		network: ProviderNetwork,
	): Promise<{ certificates: string | null } | { unavailable: string }> {
		try {
			return outcomeOf(await network({ method: 'GET', url }));
		} catch (error) {
			return {
				unavailable: `PayPal's certificate URL gave no answer: ${(error as Error).message}`,
			};
		}
	}

	/** Keeps `entry`, the oldest entry leaving when the cache is full. */
	private keep(url: string, entry: Entry): void {
		this.entries.delete(url);
		if (this.entries.size >= MOST_ENTRIES) {
			const oldest = this.entries.keys().next();
			if (oldest.done !== true) this.entries.delete(oldest.value);
		}
		this.entries.set(url, entry);
	}
}

/** The process's cache, shared by every PayPal endpoint (a URL serves the same chain to all). */
export const certificateCache = new CertificateCache();
