/**
 * Apple's App Store Server API, Get Notification History: `POST
 * /inApps/v1/notifications/history` with `{startDate, endDate}` (Unix milliseconds), followed by
 * `paginationToken` while `hasMore`. Each entry's `signedPayload` is checked exactly as the
 * Payment Webhook Trigger checks a delivery (checkNotification on the bytes of
 * `{"signedPayload": …}`): Apple's chain up to the pinned root (or the credential's test root,
 * refused for Production and for the test roots this repository published), the credential's
 * Bundle ID, the node's Environment. An entry that does not verify stops the run, named; none is
 * emitted unverified. As the trigger with its default Events, only the notification types its
 * App Store module reads become items.
 *
 * The anchor's time is the notification's `signedDate`; a run asks from the anchor's time and
 * leaves out the anchor itself and anything signed before it. Apple names no order within its
 * pages: each page is put in time order.
 */
import type { X509Certificate } from 'node:crypto';

import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	APP_STORE_ENVIRONMENTS,
	checkNotification,
	replacedRootOf,
	rootProblem,
	trustedRoot,
	type AppStoreSettings,
} from '../../PaymentWebhookTrigger/providers/appStore/notification';
import { readerOf } from '../../PaymentWebhookTrigger/provider';
import { providerOf } from '../../PaymentWebhookTrigger/providers';
import {
	listOf,
	objectOf,
	PAYMENT_PROVIDER_CREDENTIAL,
	urlOf,
	type EventSource,
	type EventStream,
	type ListedEvent,
	type Page,
	type ReadRun,
} from '../source';
import { appStoreKeyCheck } from './appStoreKey';
import { privateKeyOf } from './appStoreToken';

export const APP_STORE_HOSTS: Readonly<Record<string, string>> = {
	Production: 'https://api.storekit.itunes.apple.com',
	Sandbox: 'https://api.storekit-sandbox.itunes.apple.com',
};
export const HISTORY_PATH = '/inApps/v1/notifications/history';
const NAME = 'Apple App Store';
const CREDENTIAL = PAYMENT_PROVIDER_CREDENTIAL.displayName;

const APP_STORE_EVENTS = providerOf('appStore').events;

/** A set-up error, found before any request. */
function setupError(run: ReadRun, message: string, description: string): NodeOperationError {
	return new NodeOperationError(run.context.getNode(), message, {
		description,
		itemIndex: run.itemIndex,
	});
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The root to verify under and the settings, or a set-up error. */
function verificationOf(run: ReadRun): { root: X509Certificate; settings: AppStoreSettings } {
	const { credentials, environment } = run;
	const fix = `Fix the ${CREDENTIAL} credential.`;
	if (!(APP_STORE_ENVIRONMENTS as readonly string[]).includes(environment)) {
		throw setupError(run, 'The Environment parameter must be Production or Sandbox', fix);
	}
	const bundleId = text(credentials.bundleId).trim();
	if (bundleId === '') {
		throw setupError(run, `The ${CREDENTIAL} credential has no Bundle ID`, fix);
	}
	for (const field of ['issuerId', 'keyId'] as const) {
		if (text(credentials[field]).trim() === '') {
			const label = field === 'issuerId' ? 'Issuer ID' : 'Key ID';
			throw setupError(run, `The ${CREDENTIAL} credential has no ${label}`, fix);
		}
	}
	const key = privateKeyOf(text(credentials.privateKey));
	if ('problem' in key) throw setupError(run, key.problem, fix);
	const rootCa = text(credentials.rootCa).trim();
	const root = trustedRoot(rootCa);
	if (root === null) throw setupError(run, 'The Root Certificate is not a PEM certificate', fix);
	const refused = rootProblem(rootCa, environment);
	if (refused !== null) throw setupError(run, refused, fix);
	return { root, settings: { bundleId, environment } };
}

/** The verified event of one history entry, or the error that names it. */
function verifiedEvent(
	run: ReadRun,
	entry: unknown,
	where: string,
	{ root, settings }: ReturnType<typeof verificationOf>,
): ListedEvent {
	const signedPayload = objectOf(entry)?.signedPayload;
	const check = checkNotification(Buffer.from(JSON.stringify({ signedPayload })), root, settings);
	if (!check.valid) {
		throw new NodeOperationError(
			run.context.getNode(),
			`${NAME}: ${where} does not verify: ${check.reason}`,
			{
				description: `No item of this run was emitted. Check the ${CREDENTIAL} credential's Bundle ID and Root Certificate and the node's Environment; an entry that still fails is not Apple's.`,
				itemIndex: run.itemIndex,
			},
		);
	}
	const body = check.body as IDataObject;
	const id = text(body.notificationUUID);
	const signedDate = body.signedDate;
	const timeMs = typeof signedDate === 'number' ? signedDate : check.signedAt * 1000;
	return { id, timeMs, eventType: text(body.notificationType), body, signedAt: check.signedAt };
}

async function* history(
	run: ReadRun,
	verification: ReturnType<typeof verificationOf>,
): AsyncGenerator<Page, void, undefined> {
	const { anchor } = run;
	let token: string | null = null;
	for (let pageNumber = 1; ; pageNumber++) {
		const answer = await run.send({
			method: 'POST',
			url: urlOf(run.baseUrl, HISTORY_PATH, token === null ? [] : [['paginationToken', token]]),
			body: { startDate: anchor.timeMs, endDate: run.nowMs },
		});
		const entries = listOf(run, answer, 'notificationHistory', NAME);
		const events = entries
			.map((entry, index) =>
				verifiedEvent(
					run,
					entry,
					`notification history entry ${index + 1} of page ${pageNumber}`,
					verification,
				),
			)
			.filter(
				(event) =>
					readerOf(APP_STORE_EVENTS, event.eventType) !== undefined &&
					event.timeMs >= anchor.timeMs &&
					event.id !== anchor.id,
			)
			.sort((a, b) => a.timeMs - b.timeMs);
		const next = objectOf(answer)?.paginationToken;
		const more = objectOf(answer)?.hasMore === true && typeof next === 'string' && next !== '';
		yield { events, more };
		if (!more) return;
		token = next;
	}
}

async function open(run: ReadRun): Promise<EventStream> {
	const verification = verificationOf(run);
	const replaced = replacedRootOf(text(run.credentials.rootCa).trim()) !== null;
	return {
		start: run.anchor,
		pages: history(run, verification),
		...(replaced ? { pinnedRootReplaced: true as const } : {}),
	};
}

export const appStoreEvents: EventSource = {
	id: 'appStore',
	name: NAME,
	checkKey: appStoreKeyCheck,
	baseUrl: (_credentials, environment) =>
		environment === 'Sandbox' ? APP_STORE_HOSTS.Sandbox : APP_STORE_HOSTS.Production,
	open,
};
