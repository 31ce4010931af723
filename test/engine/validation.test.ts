/**
 * Bad input is refused before any request, with an error naming the parameter; the sandbox
 * sees nothing. Input the service accepts (integer transaction ids, non-ASCII ids) goes through.
 */
import type { INodeParameters, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { loadPackage, runWorkflow, singleNodeWorkflow } from '../helpers/n8n';
import { allCredentials, credentialFor, useSandbox } from '../helpers/sandbox';

const long = 'x'.repeat(256);
// A literal empty required field is refused by n8n itself before the run; data arrives by expression.
const EMPTY = '={{ "" }}';
const relay = { productKey: 'prd_photopal', targetProductKey: 'prd_videomax', userId: 'u1' };
const purchase = { invitedUserId: 'buyer_1', transactionId: 't1', conversionValue: 10 };

const op = (resource: string, operation: string, parameters: INodeParameters): INodeParameters => ({
	resource,
	operation,
	...parameters,
});

const BAD_INPUT: Array<[string, INodeParameters, string]> = [
	[
		'authorize: empty product key',
		op('authorization', 'authorize', { ...relay, productKey: EMPTY }),
		'Parameter "Product Key" is required',
	],
	[
		'authorize: whitespace-only target',
		op('authorization', 'authorize', { ...relay, targetProductKey: '   ' }),
		'Parameter "Target Product Key" is required',
	],
	[
		'authorize: 256-character user id',
		op('authorization', 'authorize', { ...relay, userId: long }),
		'Parameter "User ID" must be at most 255 characters (got 256)',
	],
	[
		'authorize: extra is a list',
		op('authorization', 'authorize', { ...relay, additionalFields: { extra: '[1, 2]' } }),
		'Parameter "Extra User Info" must be a JSON object',
	],
	[
		'authorize: extra is invalid JSON',
		op('authorization', 'authorize', { ...relay, additionalFields: { extra: '{"name": ' } }),
		'Parameter "Extra User Info" must be a JSON object; the text is not valid JSON',
	],
	[
		'authorize: extra is a JSON string',
		op('authorization', 'authorize', { ...relay, additionalFields: { extra: '"Ada"' } }),
		'Parameter "Extra User Info" must be a JSON object',
	],
	[
		'authorize and redirect: empty user id',
		op('authorization', 'authorizeAndRedirect', { ...relay, userId: EMPTY }),
		'Parameter "User ID" is required',
	],
	[
		'authorize and redirect: extra is null',
		op('authorization', 'authorizeAndRedirect', { ...relay, additionalFields: { extra: 'null' } }),
		'Parameter "Extra User Info" must be a JSON object',
	],
	[
		'exchange code: empty',
		op('authorization', 'exchangeCode', { code: EMPTY }),
		'Parameter "Authorization Code" is required',
	],
	[
		'exchange code: 256 characters',
		op('authorization', 'exchangeCode', { code: long }),
		'Parameter "Authorization Code" must be at most 255',
	],
	[
		'debug code: empty source',
		op('authorization', 'getDebugCode', { ...relay, sourceProductKey: EMPTY }),
		'Parameter "Source Product Key" is required',
	],
	[
		'debug code: extra is a number',
		op('authorization', 'getDebugCode', {
			...relay,
			sourceProductKey: 'prd_photopal',
			additionalFields: { extra: '42' },
		}),
		'Parameter "Extra User Info" must be a JSON object',
	],
	[
		'signup: empty invited user',
		op('conversion', 'trackSignup', { invitedUserId: EMPTY, inviteCode: 'ADA2026' }),
		'Parameter "Invited User ID" is required',
	],
	[
		'signup: whitespace invite code',
		op('conversion', 'trackSignup', { invitedUserId: 'u', inviteCode: '  ' }),
		'Parameter "Invite Code" is required',
	],
	[
		'signup: 256-character user name',
		op('conversion', 'trackSignup', {
			invitedUserId: 'u',
			inviteCode: 'ADA2026',
			additionalFields: { invitedUserName: long },
		}),
		'Parameter "Invited User Name" must be at most 255',
	],
	[
		'purchase: empty transaction id',
		op('conversion', 'trackPurchase', { ...purchase, transactionId: EMPTY }),
		'Parameter "Transaction ID" is required',
	],
	[
		'purchase: 256-character transaction id',
		op('conversion', 'trackPurchase', { ...purchase, transactionId: long }),
		'Parameter "Transaction ID" must be at most 255',
	],
	[
		'purchase: value is text',
		op('conversion', 'trackPurchase', { ...purchase, conversionValue: 'abc' }),
		'Parameter "Conversion Value" must be a number',
	],
	[
		'purchase: negative value',
		op('conversion', 'trackPurchase', { ...purchase, conversionValue: -5 }),
		'Parameter "Conversion Value" must not be negative',
	],
	[
		'purchase: empty value',
		op('conversion', 'trackPurchase', { ...purchase, conversionValue: '' }),
		'Parameter "Conversion Value" is required',
	],
	[
		'purchase: extra fields override event_name',
		op('conversion', 'trackPurchase', {
			...purchase,
			additionalFields: { extraBodyFields: '{"event_name": "x"}' },
		}),
		'Parameter "Extra Body Fields" must not contain "event_name"',
	],
	[
		'purchase: extra fields are a list',
		op('conversion', 'trackPurchase', {
			...purchase,
			additionalFields: { extraBodyFields: '[1]' },
		}),
		'Parameter "Extra Body Fields" must be a JSON object',
	],
	[
		'custom event: empty name',
		op('conversion', 'trackEvent', { eventName: EMPTY, invitedUserId: 'u' }),
		'Parameter "Event Name" is required',
	],
	[
		'custom event: named signup',
		op('conversion', 'trackEvent', { eventName: 'signup', invitedUserId: 'u' }),
		'Parameter "Event Name" must not be "signup"',
	],
	[
		'custom event: value is text',
		op('conversion', 'trackEvent', {
			eventName: 'e',
			invitedUserId: 'u',
			additionalFields: { conversionValue: 'ten' },
		}),
		'Parameter "Conversion Value" must be a number',
	],
	[
		'custom event: 256-character transaction id',
		op('conversion', 'trackEvent', {
			eventName: 'e',
			invitedUserId: 'u',
			additionalFields: { transactionId: long },
		}),
		'Parameter "Transaction ID" must be at most 255',
	],
	[
		'refund: empty transaction id',
		op('conversion', 'refund', { transactionId: EMPTY }),
		'Parameter "Transaction ID" is required',
	],
	[
		'refund: whitespace-only transaction id',
		op('conversion', 'refund', { transactionId: '   ' }),
		'Parameter "Transaction ID" is required',
	],
	[
		'refund: 256-character transaction id',
		op('conversion', 'refund', { transactionId: long }),
		'Parameter "Transaction ID" must be at most 255 characters (got 256)',
	],
	[
		'refund: 256-character reason',
		op('conversion', 'refund', { transactionId: 'txn_1001', reason: 'r'.repeat(256) }),
		'Parameter "Reason" must be at most 255 characters (got 256)',
	],
	[
		'login: empty user id',
		op('promoter', 'login', { userId: EMPTY }),
		'Parameter "User ID" is required',
	],
	[
		'login: bad email',
		op('promoter', 'login', { userId: 'u', additionalFields: { email: 'not-an-email' } }),
		'Parameter "Email" must be an email address',
	],
	[
		'login: email without a domain dot',
		op('promoter', 'login', { userId: 'u', additionalFields: { email: 'a@b' } }),
		'Parameter "Email" must be an email address',
	],
	[
		'login: unknown language',
		op('promoter', 'login', { userId: 'u', additionalFields: { lang: 'fr' } }),
		'Parameter "Language" must be one of en, zh, zh-hk (got "fr")',
	],
	[
		'login: unknown theme',
		op('promoter', 'login', { userId: 'u', additionalFields: { themeMode: 'blue' } }),
		'Parameter "Theme" must be one of light, dark (got "blue")',
	],
	[
		'get: empty user id',
		op('promoter', 'get', { userId: EMPTY }),
		'Parameter "User ID" is required',
	],
	[
		'get: 256-character user id',
		op('promoter', 'get', { userId: long }),
		'Parameter "User ID" must be at most 255',
	],
	[
		'get: user id ".."',
		op('promoter', 'get', { userId: '..' }),
		'Parameter "User ID" cannot be "." or ".."',
	],
	[
		'get: unknown include value',
		op('promoter', 'get', { userId: 'user_1001', expand: ['links', 'wallet'] }),
		'Parameter "Include" can only hold balances, links, statistics (got "wallet")',
	],
	[
		'get: unknown include in a text list',
		op('promoter', 'get', { userId: 'user_1001', expand: 'links,foo' }),
		'Parameter "Include" can only hold balances, links, statistics (got "foo")',
	],
	[
		'links: user id "."',
		op('promoter', 'getLinks', { userId: '.' }),
		'Parameter "User ID" cannot be "." or ".."',
	],
	[
		'statistics: month 13',
		op('promoter', 'getStatistics', { userId: 'user_1001', startDate: '2026-13-01' }),
		'Parameter "Start Date" must be a real date written YYYY-MM-DD',
	],
	[
		'statistics: unpadded date',
		op('promoter', 'getStatistics', { userId: 'user_1001', startDate: '2026-2-1' }),
		'Parameter "Start Date" must be a real date written YYYY-MM-DD',
	],
	[
		'statistics: 30 February',
		op('promoter', 'getStatistics', { userId: 'user_1001', endDate: '2026-02-30' }),
		'Parameter "End Date" must be a real date written YYYY-MM-DD',
	],
	[
		'statistics: reversed range',
		op('promoter', 'getStatistics', {
			userId: 'user_1001',
			startDate: '2026-03-02',
			endDate: '2026-03-01',
		}),
		'Parameter "End Date" must not be earlier than Start Date',
	],
	[
		'balances: whitespace-only user id',
		op('promoter', 'getBalances', { userId: ' ' }),
		'Parameter "User ID" is required',
	],
];

describe('input refused before any request', () => {
	const sandbox = useSandbox();

	it('every operation of the node has refused-input cases', async () => {
		const { description } = (await loadPackage()).nodeTypes.affiliateTracking.type as INodeType;
		const operations = description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options as INodePropertyOptions[]).map(
					(option) => `${property.displayOptions?.show?.resource?.[0]}.${option.value}`,
				),
			);
		const covered = new Set(BAD_INPUT.map(([, p]) => `${p.resource}.${p.operation}`));
		expect(operations).toHaveLength(13);
		expect(operations.filter((operation) => !covered.has(operation))).toEqual([]);
	});

	it.each(BAD_INPUT)('%s', async (_name, parameters, message) => {
		const credentialId =
			parameters.resource === 'authorization' && parameters.operation !== 'exchangeCode'
				? 'photopal-v2'
				: 'videomax-v2';
		const result = await runWorkflow(singleNodeWorkflow(parameters, { credentialId }), {
			credentials: allCredentials(sandbox),
		});
		expect(result.error?.message).toContain(message);
		expect(result.error?.description).toContain('The request was not sent');
		expect(sandbox.requestCount).toBe(0);
	});

	it('a credential with a plain http:// base URL off loopback is refused before sending', async () => {
		const result = await runWorkflow(
			singleNodeWorkflow(op('promoter', 'get', { userId: 'user_1001' }), {
				credentialId: 'remote',
			}),
			{
				credentials: {
					remote: credentialFor(sandbox, 'pk_test_videomax_v2', {
						baseUrl: 'http://api.example.com',
					}),
				},
			},
		);
		expect(result.error?.message).toBe(
			'Base URL must use https://; plain http:// is only allowed for a local sandbox on 127.0.0.1 or localhost',
		);
		expect(sandbox.requestCount).toBe(0);
	});

	describe('accepted input', () => {
		it.each([
			[
				'an integer transaction id from an expression',
				op('conversion', 'refund', { transactionId: '={{ 20260301 }}' }),
				{ status: 'APPLIED', transaction_id: '20260301' },
			],
			[
				'a non-ASCII user id with "/", space and "&"',
				op('promoter', 'get', { userId: 'user/with space&ü' }),
				{ external_user_id: 'user/with space&ü' },
			],
			[
				'a non-ASCII user id for login',
				op('promoter', 'login', { userId: '李雷_88' }),
				{ lang: 'en' },
			],
			[
				'a conversion value given as text',
				op('conversion', 'trackPurchase', { ...purchase, conversionValue: '12.50' }),
				{ event_name: 'purchase' },
			],
			[
				'a 255-character transaction id (refused by the service as unknown, not by the node)',
				op('conversion', 'refund', { transactionId: 'y'.repeat(255) }),
				{ error: 'The conversion for the specified transaction was not found' },
			],
		])('%s', async (_name, parameters, expected) => {
			const result = await runWorkflow(
				singleNodeWorkflow(parameters, { onError: 'continueRegularOutput' }),
				{ credentials: allCredentials(sandbox) },
			);
			expect(result.output('Affiliate Tracking')[0].json).toMatchObject(expected);
			expect(sandbox.requestCount).toBe(1);
		});
	});
});
