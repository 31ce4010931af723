/**
 * The provider APIs emulator's App Store Server API (sandbox/providerApis/appStore.js) over real
 * HTTP: POST /inApps/v1/notifications/history paged by token, its date range and filters, and the
 * App Store Connect token's checks (ES256, kid, iss, aud, bid, iat, exp).
 */
import { scenario } from '../../support/scenarios';
import * as harness from './providerApisHarness';

const { BUNDLE, otherKeys, startedProviderApis, call, pad, jws, DAY, now, appleToken } = harness;

describe(scenario('sandbox.providerApis.appStore'), () => {
	const apis = startedProviderApis();

	const START = Date.now() - 10 * DAY;
	const TYPES = ['REFUND', 'DID_RENEW', 'CONSUMPTION_REQUEST'];
	const signedDate = (index: number) => START + index * 60_000;
	const signedPayload = (index: number) =>
		jws(
			{ alg: 'ES256', x5c: [] },
			{
				notificationType: TYPES[index % 3],
				notificationUUID: `uuid-${pad(index)}`,
				data: {
					bundleId: BUNDLE,
					signedTransactionInfo: jws(
						{ alg: 'ES256' },
						{ transactionId: `20000${pad(index)}`, originalTransactionId: `10000${pad(index)}` },
					),
				},
				signedDate: signedDate(index),
			},
		);
	const payloads = Array.from({ length: 45 }, (_, index) => signedPayload(index));
	const history = (
		body: object,
		paginationToken?: string,
		authorization = `Bearer ${appleToken()}`,
	) =>
		call(
			`${apis.baseUrls.appStore}/inApps/v1/notifications/history${paginationToken ? `?paginationToken=${paginationToken}` : ''}`,
			{
				method: 'POST',
				headers: { Authorization: authorization, 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			},
		);
	const all = { startDate: START, endDate: Date.now() };
	const payloadsOf = (answer: harness.Answer) =>
		answer.notificationHistory.map((entry) => entry.signedPayload);

	beforeAll(() => {
		apis.reset();
		for (let index = 44; index >= 0; index--)
			apis.record('appStore', { signedPayload: payloads[index], signedDate: signedDate(index) });
	});

	it('pages 45 notifications 20, 20 and 5 in signedDate order with paginationToken', async () => {
		const pages: harness.Answer[] = [(await history(all)).json];
		for (let last = pages[0]; last.hasMore; pages.push(last))
			last = (await history(all, last.paginationToken)).json;
		const shapes = pages.map((page) => [
			page.notificationHistory.length,
			page.hasMore,
			'paginationToken' in page,
		]);
		expect(shapes).toEqual([
			[20, true, true],
			[20, true, true],
			[5, false, false],
		]);
		expect(pages.flatMap(payloadsOf)).toEqual(payloads);
		expect(pages[0].notificationHistory[0]).toEqual({
			signedPayload: payloads[0],
			sendAttempts: [{ attemptDate: signedDate(0), sendAttemptResult: 'SUCCESS' }],
		});
	});

	it('keeps startDate ≤ signedDate < endDate and filters by notificationType or transactionId', async () => {
		const range = await history({ startDate: signedDate(10), endDate: signedDate(15) });
		expect([range.json.hasMore, 'paginationToken' in range.json]).toEqual([false, false]);
		expect(payloadsOf(range.json)).toEqual(payloads.slice(10, 15));
		const refunds = await history({ ...all, notificationType: 'REFUND' });
		expect(payloadsOf(refunds.json)).toEqual(payloads.filter((_, index) => index % 3 === 0));
		const one = await history({ ...all, transactionId: `10000${pad(7)}` });
		expect(payloadsOf(one.json)).toEqual([payloads[7]]);
		expect(payloadsOf((await history({ ...all, onlyFailures: true })).json)).toEqual([]);
	});

	/** `token` with the payload of `other`: its signature no longer fits. */
	const tampered = (token: string, other: string) =>
		[token.split('.')[0], other.split('.')[1], token.split('.')[2]].join('.');
	const bearer = (...token: Parameters<typeof appleToken>) => `Bearer ${appleToken(...token)}`;
	const unauthenticated: Array<[string, string | undefined]> = [
		['no Authorization', undefined],
		['a malformed token', 'Bearer not.a-jwt'],
		['a Basic scheme', `Basic ${appleToken()}`],
		['alg HS256', bearer({ header: { alg: 'HS256' } })],
		['another kid', bearer({ header: { kid: 'OTHERKEY00' } })],
		['another iss', bearer({ payload: { iss: 'another-issuer' } })],
		['another aud', bearer({ payload: { aud: 'appstoreconnect-v2' } })],
		['another bid', bearer({ payload: { bid: 'com.example.other' } })],
		['another key', bearer({ key: otherKeys.privateKey })],
		[
			'a tampered payload',
			`Bearer ${tampered(appleToken(), appleToken({ payload: { exp: now() + 1300 } }))}`,
		],
		['an expired token', bearer({ payload: { iat: now() - 600, exp: now() } })],
		['iat 2 minutes ahead', bearer({ payload: { iat: now() + 120, exp: now() + 600 } })],
		['a lifetime over an hour', bearer({ payload: { iat: now(), exp: now() + 3601 } })],
	];
	it.each(unauthenticated)('refuses %s with 401', async (_, authorization) => {
		const answer = await call(`${apis.baseUrls.appStore}/inApps/v1/notifications/history`, {
			method: 'POST',
			headers: authorization === undefined ? {} : { Authorization: authorization },
			body: JSON.stringify(all),
		});
		expect(answer).toMatchObject({
			status: 401,
			json: { errorCode: 4010000, errorMessage: 'Unauthenticated' },
		});
	});

	it('accepts a token issued up to a minute ahead and living an hour', async () => {
		const aheadAnHour = bearer({ payload: { iat: now() + 30, exp: now() + 3630 } });
		const answer = await history(all, undefined, aheadAnHour);
		expect(answer.status).toBe(200);
	});

	const badRequests: Array<[string, object, string]> = [
		['no startDate', { endDate: Date.now() }, 'startDate'],
		['no endDate', { startDate: START }, 'endDate'],
		['start after end', { startDate: signedDate(5), endDate: signedDate(4) }, 'startDate'],
		['a start 181 days ago', { ...all, startDate: Date.now() - 181 * DAY }, 'startDate'],
	];
	it.each(badRequests)('refuses %s with 400 naming the field', async (_, body, field) => {
		const answer = await history(body);
		expect(answer).toMatchObject({
			status: 400,
			json: { errorCode: 4000000, errorMessage: expect.stringContaining(field) },
		});
	});

	it("refuses another body's paginationToken with 400", async () => {
		const first = (await history(all)).json;
		const other = await history({ ...all, notificationType: 'REFUND' }, first.paginationToken);
		expect(other).toMatchObject({
			status: 400,
			json: { errorCode: 4000000, errorMessage: expect.stringContaining('paginationToken') },
		});
		expect((await history(all, 'garbage')).status).toBe(400);
	});
});
