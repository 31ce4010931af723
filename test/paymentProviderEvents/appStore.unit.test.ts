/**
 * Payment Provider Events on the App Store Server API's notification history (the emulator over
 * HTTP, which checks the request token as Apple does): each entry verified as the trigger
 * verifies a delivery, paged by paginationToken, each item the trigger's own; an entry that does
 * not verify stops the run, named; roots refused before any request.
 */
import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	apis,
	CREDENTIALS,
	DAY,
	MINUTE,
	record,
	runNode,
	useProviderApis,
	withoutCursor,
} from './harness';
import { providerOf } from '../../nodes/PaymentWebhookTrigger/providers';
import { PaymentWebhookTrigger } from '../../nodes/PaymentWebhookTrigger/PaymentWebhookTrigger.node';
import * as samples from '../../nodes/PaymentWebhookTrigger/providers/appStore/samples';
import {
	createTestChain,
	signNotification,
	type TestChain,
} from '../../support/payment/appStoreChain';
import { fakeWebhookContext } from '../../support/fakes/fakeWebhookContext';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

useProviderApis();

let chain: TestChain;
let stranger: TestChain;
beforeAll(async () => {
	chain = await createTestChain();
	stranger = await createTestChain({ rootName: 'Someone Else Root CA' });
});
const credentials = () => ({ ...CREDENTIALS.appStore, rootCa: chain.rootPem });

const KINDS = ['oneTimeCharge', 'subscribed', 'didRenew', 'refund', 'refundProrated'] as const;
const uuid = (index: number) => `7b1c0000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/** The notification `index` of a history: the samples in turn, its own UUID and transaction. */
function notificationAt(index: number, signedDate: number, type?: string) {
	const sample = samples.notifications[KINDS[index % KINDS.length]];
	const transactionInfo = {
		...sample.data.transactionInfo,
		transactionId: `20000009020${String(index).padStart(5, '0')}`,
	};
	return {
		...sample,
		...(type === undefined ? {} : { notificationType: type }),
		notificationUUID: uuid(index),
		signedDate,
		data: { ...sample.data, transactionInfo },
	};
}

interface Entry {
	signedPayload: string;
	signedDate: number;
	uuid: string;
}

/** `count` notifications a minute apart from `firstMs`, every tenth of a type the trigger does not read. */
function history(count: number, firstMs: number, signer = () => chain): Entry[] {
	const entries = Array.from({ length: count }, (_, index) => {
		const signedDate = firstMs + index * MINUTE;
		const unread = index % 10 === 9 ? 'DID_CHANGE_RENEWAL_STATUS' : undefined;
		const notification = notificationAt(index, signedDate, unread);
		return {
			signedPayload: signNotification(signer(), notification),
			signedDate,
			uuid: uuid(index),
		};
	});
	record(
		'appStore',
		entries.map(({ signedPayload, signedDate }) => ({ signedPayload, signedDate })),
	);
	return entries;
}
const read = (entries: Entry[]) =>
	entries.filter((_, index) => index % 10 !== 9).map(({ uuid: id }) => id);
const cursorOf = ({ signedDate, uuid: id }: Entry) => `${signedDate}:${id}`;

/** The item the Payment Webhook Trigger makes of the same notification delivered to it. */
async function triggerItem(entry: Entry): Promise<IDataObject | undefined> {
	const fake = fakeWebhookContext({
		rawBody: JSON.stringify({ signedPayload: entry.signedPayload }),
		secret: '',
		credential: { rootCa: chain.rootPem },
		headers: { 'content-type': 'application/json' },
		parameters: {
			provider: 'appStore',
			bundleId: samples.bundleId,
			environment: 'Sandbox',
			events: Object.keys(providerOf('appStore').events),
			responseMode: 'onReceived',
			options: {},
		},
	});
	const result = await new PaymentWebhookTrigger().webhook.call(fake.context);
	return result.workflowData?.[0][0].json;
}

describe(scenario('paymentEvents.appStore'), () => {
	it('a first run: every notification since the start, verified, oldest first, 20 a page', async () => {
		history(5, Date.now() - 4 * DAY);
		const entries = history(50, Date.now() - 2 * DAY);
		const started = Date.now();
		const { items, requests } = await runNode('appStore', { credentials: credentials() });

		expect(items.map((item) => item.eventId)).toEqual(read(entries));
		expect(requests.map((request) => request.method)).toEqual(['POST', 'POST', 'POST']);
		const tokens = requests.map((request) =>
			new URL(request.url).searchParams.get('paginationToken'),
		);
		expect(tokens[0]).toBeNull();
		expect(tokens.slice(1).every((token) => typeof token === 'string')).toBe(true);
		const body = requests[0].body as { startDate: number; endDate: number };
		expect(requests.every((request) => JSON.stringify(request.body) === JSON.stringify(body))).toBe(
			true,
		);
		expect(Math.abs(body.startDate - (started - 3 * DAY))).toBeLessThan(MINUTE);
		expect(body.endDate).toBeGreaterThanOrEqual(started);
	});

	it('each item is what the Payment Webhook Trigger makes of the same notification, plus its cursor', async () => {
		const entries = history(20, Date.now() - DAY);
		const { items } = await runNode('appStore', { credentials: credentials() });
		const expected = [];
		for (const entry of entries.filter((_, index) => index % 10 !== 9)) {
			expected.push(await triggerItem(entry));
		}
		expect(items.map(withoutCursor)).toEqual(expected);
		expect(items[0]).toMatchObject({
			provider: 'appStore',
			eventType: 'ONE_TIME_CHARGE',
			kind: 'purchase',
			pinnedRootReplaced: true,
			cursor: cursorOf(entries[0]),
		});
		expect(items.map((item) => item.kind)).toContain('refund');
	});

	it("from a cursor: asks from the anchor's time and leaves out the anchor itself", async () => {
		const entries = history(30, Date.now() - DAY);
		const { items, requests } = await runNode('appStore', {
			credentials: credentials(),
			parameters: { cursor: cursorOf(entries[11]), overlapMinutes: 3 },
		});
		expect((requests[0].body as { startDate: number }).startDate).toBe(entries[11].signedDate);
		expect(items.map((item) => item.eventId)).toEqual(read(entries).filter((id) => id > uuid(11)));
		// Three minutes of overlap: the first items keep the start anchor, then three back.
		expect(items.slice(0, 3).map((item) => item.cursor)).toEqual(
			Array(3).fill(cursorOf(entries[11])),
		);
		expect(items[4]).toMatchObject({ eventId: uuid(16), cursor: cursorOf(entries[13]) });
	});

	it('an entry signed under another root stops the run, named by its place; nothing is emitted', async () => {
		const now = Date.now();
		const entries = history(25, now - DAY, () => chain);
		const forged = notificationAt(99, now - DAY + 30 * MINUTE);
		record('appStore', [
			{ signedPayload: signNotification(stranger, forged), signedDate: forged.signedDate },
		]);
		const error = await runNode('appStore', { credentials: credentials() }).catch(
			(caught: unknown) => caught,
		);
		expect(entries).toHaveLength(25);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(
			/^Apple App Store: notification history entry 6 of page 2 does not verify: /,
		);
		expect((error as NodeOperationError).description).toContain('No item of this run was emitted');
	});

	it("with Apple's own root (no Root Certificate), a test chain's entries are refused", async () => {
		history(3, Date.now() - DAY);
		const error = await runNode('appStore', {
			credentials: { ...credentials(), rootCa: '' },
		}).catch((caught: unknown) => caught);
		expect((error as Error).message).toMatch(/entry 1 of page 1 does not verify/);
	});

	it('a notification for another app or environment is refused as the trigger refuses it', async () => {
		const scripted = (notification: object) => () => ({
			statusCode: 200,
			headers: {},
			body: {
				notificationHistory: [{ signedPayload: signNotification(chain, notification as never) }],
				hasMore: false,
			},
		});
		const sample = notificationAt(0, Date.now() - DAY);
		// The emulator checks the token's bid against its one app: these answers are scripted.
		const otherApp = await runNode('appStore', {
			credentials: { ...credentials(), bundleId: 'com.example.other' },
			respond: scripted(sample),
		}).catch((caught: unknown) => caught);
		expect((otherApp as Error).message).toContain(
			'for another app than bundle ID com.example.other',
		);
		const production = {
			...sample,
			data: {
				...sample.data,
				environment: 'Production',
				transactionInfo: { ...sample.data.transactionInfo, environment: 'Production' },
			},
		};
		const otherEnvironment = await runNode('appStore', {
			credentials: credentials(),
			respond: scripted(production),
		}).catch((caught: unknown) => caught);
		expect((otherEnvironment as Error).message).toContain(
			'the notification is for another environment than Sandbox',
		);
	});

	it('a Root Certificate with Environment Production is refused before any request', async () => {
		history(3, Date.now() - DAY);
		const error = await runNode('appStore', {
			credentials: credentials(),
			parameters: { environment: 'Production' },
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toContain('it is refused with Environment Production');
		expect(apis.calls('appStore')).toBe(0);
	});

	it('a test root this repository published is refused before any request, in Sandbox too', async () => {
		const published = JSON.parse(
			readRepoFile('support/fixtures/appStorePublishedRoots.json'),
		) as Record<string, string>;
		for (const rootCa of Object.values(published)) {
			const error = await runNode('appStore', { credentials: { ...credentials(), rootCa } }).catch(
				(caught: unknown) => caught,
			);
			expect((error as Error).message).toContain('a test root this package');
		}
		expect(apis.calls('appStore')).toBe(0);
	});

	it('a key Apple does not know: its 401 names the Payment Provider API credential', async () => {
		history(3, Date.now() - DAY);
		const other = await import('node:crypto').then(({ generateKeyPairSync }) =>
			generateKeyPairSync('ec', { namedCurve: 'P-256' }),
		);
		const error = await runNode('appStore', {
			credentials: {
				...credentials(),
				privateKey: other.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
			},
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error).toMatchObject({
			httpCode: '401',
			message:
				'Apple App Store refused the Payment Provider API credential (HTTP 401): Unauthenticated',
		});
	});

	it('Environment picks the host: Production api.storekit, Sandbox api.storekit-sandbox', async () => {
		for (const [environment, host] of [
			['Production', 'https://api.storekit.itunes.apple.com'],
			['Sandbox', 'https://api.storekit-sandbox.itunes.apple.com'],
		]) {
			const { requests } = await runNode('appStore', {
				credentials: { ...credentials(), rootCa: '' },
				parameters: { environment, options: {} },
				respond: () => ({
					statusCode: 200,
					headers: {},
					body: { notificationHistory: [], hasMore: false },
				}),
			});
			expect(requests[0].url).toBe(`${host}/inApps/v1/notifications/history`);
		}
	});
});
