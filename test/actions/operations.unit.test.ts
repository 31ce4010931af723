/**
 * Every operation through the router, on the sources: the request each one builds from its
 * parameters, and the items it gives for the service's answer.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { router } from '../../nodes/AffiliateTracking/actions/router';
import {
	envelope,
	fakeContext,
	httpAnswer,
	TEST_CREDENTIALS,
} from '../../support/fakes/fakeContext';
import { scenario } from '../../support/scenarios';

const API = 'https://api.example.com/api/open/v1';

interface Case {
	parameters: IDataObject;
	/** The request sent: method and URL below the API prefix. */
	request: string;
	/** The JSON body sent (none when not given). */
	body?: IDataObject;
	answer?: unknown;
	output?: IDataObject[];
}

const relay = { productKey: 'prd_a', targetProductKey: 'prd_b', userId: 'u 1' };
const relayBody = { product_key: 'prd_a', target_product_key: 'prd_b', user_id: 'u 1' };
/** The body of a Track operation for invited user vm_1. */
const conversion = (event_name: string, fields: IDataObject) => ({
	event_name,
	invited_user_id: 'vm_1',
	...fields,
});

const CASES: Record<string, Case> = {
	'authorization.authorize': {
		parameters: { ...relay, additionalFields: { extra: '{"name":"Ada"}' } },
		request: 'POST /oauth/authorize',
		body: { ...relayBody, extra: { name: 'Ada' } },
	},
	'authorization.getDebugCode': {
		parameters: { sourceProductKey: 'prd_a', targetProductKey: 'prd_b', userId: 'u 1' },
		request: 'POST /oauth/getDebugAuthCode',
		body: { source_product_key: 'prd_a', target_product_key: 'prd_b', user_id: 'u 1' },
	},
	'authorization.exchangeCode': {
		parameters: { code: ' abc ' },
		request: 'POST /oauth/getUserByAuthorizationCode',
		body: { code: 'abc' },
	},
	'conversion.trackSignup': {
		parameters: {
			invitedUserId: 'vm_1',
			inviteCode: 'ADA',
			additionalFields: { clickId: 'c1', invitedUserName: 'Ann' },
		},
		request: 'POST /track/conversion',
		body: conversion('signup', { invite_code: 'ADA', invited_user_name: 'Ann', click_id: 'c1' }),
	},
	'conversion.trackPurchase': {
		parameters: {
			invitedUserId: 'vm_1',
			transactionId: 'o1',
			conversionValue: '49.90',
			additionalFields: { extraBodyFields: '{"currency":"USD"}' },
		},
		request: 'POST /track/conversion',
		body: conversion('purchase', { transaction_id: 'o1', conversion_value: 49.9, currency: 'USD' }),
	},
	'conversion.trackEvent': {
		parameters: {
			eventName: 'renewal',
			invitedUserId: 'vm_1',
			additionalFields: { transactionId: 'r1', conversionValue: 9.5 },
		},
		request: 'POST /track/conversion',
		body: conversion('renewal', { transaction_id: 'r1', conversion_value: 9.5 }),
	},
	'conversion.refund': {
		parameters: { transactionId: 'o1', reason: 'customer request' },
		request: 'POST /track/refund',
		body: { transaction_id: 'o1', reason: 'customer request' },
	},
	'promoter.login': {
		parameters: { userId: 'u1', additionalFields: { lang: 'en', themeMode: 'dark' } },
		request: 'POST /promoter/login',
		body: { user_id: 'u1', lang: 'en', theme_mode: 'dark' },
		answer: { token: 'a/b', user_string_id: 's1' },
		output: [
			{
				token: 'a/b',
				user_string_id: 's1',
				promoterCenterUrl: 'https://promoter.example.com?at=a%2Fb',
				promoterCenterIframeUrl: 'https://promoter.example.com/iframe/a%2Fb',
			},
		],
	},
	'promoter.get': {
		parameters: { userId: 'user/1 ü', expand: ['links', 'balances'] },
		request: 'GET /promoters/user%2F1%20%C3%BC?expand=links%2Cbalances',
	},
	'promoter.getLinks': {
		parameters: { userId: 'u1' },
		request: 'GET /promoters/u1/links',
		answer: [{ url: 'https://t.example/A' }, { url: 'https://t.example/B' }],
		output: [{ url: 'https://t.example/A' }, { url: 'https://t.example/B' }],
	},
	'promoter.getStatistics': {
		parameters: { userId: 'u1', startDate: '2026-03-01', endDate: '2026-03-31' },
		request: 'GET /promoters/u1/statistics?start_date=2026-03-01&end_date=2026-03-31',
	},
	'promoter.getBalances': {
		parameters: { userId: 'u1', splitIntoItems: false },
		request: 'GET /promoters/u1/balances',
		answer: [{ currency: 'USD', available: '1.00' }],
		output: [{ balances: [{ currency: 'USD', available: '1.00' }] }],
	},
};

async function runOperation(name: string, testCase: Case) {
	const [resource, operation] = name.split('.');
	const answer = testCase.answer ?? { ok: true };
	const fake = fakeContext({
		parameters: { resource, operation, ...testCase.parameters },
		credentials: { ...TEST_CREDENTIALS, promoterCenterUrl: 'https://promoter.example.com' },
		respond: () => envelope(0, 'success', answer),
	});
	const [items] = (await router(fake.context)) as INodeExecutionData[][];
	return { items, requests: fake.requests };
}

describe(scenario('actions.requests'), () => {
	it.each(Object.entries(CASES))('%s', async (name, testCase) => {
		const { items, requests } = await runOperation(name, testCase);
		expect(requests).toHaveLength(1);
		const [request] = requests;
		const [method, path] = testCase.request.split(' ');
		expect({ method: request.method, url: request.url }).toEqual({ method, url: `${API}${path}` });
		if (testCase.body === undefined) expect(request.body).toBeUndefined();
		else expect(JSON.parse(String(request.body))).toEqual(testCase.body);
		expect(items.map((item) => item.json)).toEqual(
			testCase.output ?? [testCase.answer ?? { ok: true }],
		);
		expect(items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
	});

	it('authorization.authorizeAndRedirect gives the Location of the 302', async () => {
		const location = 'https://app.example.com/?ps_ref=A&x_auth_code=c';
		const fake = fakeContext({
			parameters: { resource: 'authorization', operation: 'authorizeAndRedirect', ...relay },
			respond: () => httpAnswer(302, '', { location }),
		});
		const [items] = await router(fake.context);
		expect(fake.requests[0].url).toBe(
			`${API}/oauth/authorizeAndRedirect?product_key=prd_a&target_product_key=prd_b&user_id=u%201`,
		);
		const redirect = { redirect_url: location, ps_ref: 'A', x_auth_code: 'c' };
		expect(items.map((item) => item.json)).toEqual([redirect]);
	});

	it.each([
		[
			'an unknown operation is refused before any request',
			{ resource: 'conversion', operation: 'void' },
			'The operation "void" of resource "conversion" is not supported',
		],
		[
			'Track Custom Event refuses "signup", which needs Track Signup',
			{ resource: 'conversion', operation: 'trackEvent', eventName: 'signup', invitedUserId: 'u' },
			'Parameter "Event Name" must not be "signup": use the Track Signup operation, which sends the invite code',
		],
	])('%s', async (_name, parameters, message) => {
		const fake = fakeContext({ parameters });
		await expect(router(fake.context)).rejects.toThrow(message);
		expect(fake.requests).toHaveLength(0);
	});
});
