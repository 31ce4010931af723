/**
 * Bad input is refused before any request, with an error naming the parameter; the sandbox
 * sees nothing. Input the service accepts (integer transaction ids, non-ASCII ids) goes through.
 */
import type { INodeParameters, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { loadPackage } from '../../testing/n8nCore/packageLoader';
import { runWorkflow } from '../../testing/n8nCore/runWorkflow';
import { singleNodeWorkflow } from '../../testing/n8nCore/workflows';
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

/**
 * The refused input of one operation: each case changes the operation's valid parameters and
 * names the message expected; its test is called "<label>: <case>".
 */
function refused(
	label: string,
	[resource, operation]: [string, string],
	valid: INodeParameters,
	cases: Array<[string, INodeParameters, string]>,
): Array<[string, INodeParameters, string]> {
	return cases.map(([name, change, message]) => [
		`${label}: ${name}`,
		op(resource, operation, { ...valid, ...change }),
		message,
	]);
}

const BAD_INPUT: Array<[string, INodeParameters, string]> = [
	...refused('authorize', ['authorization', 'authorize'], relay, [
		['empty product key', { productKey: EMPTY }, 'Parameter "Product Key" is required'],
		[
			'whitespace-only target',
			{ targetProductKey: '   ' },
			'Parameter "Target Product Key" is required',
		],
		[
			'256-character user id',
			{ userId: long },
			'Parameter "User ID" must be at most 255 characters (got 256)',
		],
		[
			'extra is a list',
			{ additionalFields: { extra: '[1, 2]' } },
			'Parameter "Extra User Info" must be a JSON object',
		],
		[
			'extra is invalid JSON',
			{ additionalFields: { extra: '{"name": ' } },
			'Parameter "Extra User Info" must be a JSON object; the text is not valid JSON',
		],
		[
			'extra is a JSON string',
			{ additionalFields: { extra: '"Ada"' } },
			'Parameter "Extra User Info" must be a JSON object',
		],
	]),
	...refused('authorize and redirect', ['authorization', 'authorizeAndRedirect'], relay, [
		['empty user id', { userId: EMPTY }, 'Parameter "User ID" is required'],
		[
			'extra is null',
			{ additionalFields: { extra: 'null' } },
			'Parameter "Extra User Info" must be a JSON object',
		],
	]),
	...refused('exchange code', ['authorization', 'exchangeCode'], {}, [
		['empty', { code: EMPTY }, 'Parameter "Authorization Code" is required'],
		['256 characters', { code: long }, 'Parameter "Authorization Code" must be at most 255'],
	]),
	...refused(
		'debug code',
		['authorization', 'getDebugCode'],
		{ ...relay, sourceProductKey: 'prd_photopal' },
		[
			['empty source', { sourceProductKey: EMPTY }, 'Parameter "Source Product Key" is required'],
			[
				'extra is a number',
				{ additionalFields: { extra: '42' } },
				'Parameter "Extra User Info" must be a JSON object',
			],
		],
	),
	...refused(
		'signup',
		['conversion', 'trackSignup'],
		{ invitedUserId: 'u', inviteCode: 'ADA2026' },
		[
			['empty invited user', { invitedUserId: EMPTY }, 'Parameter "Invited User ID" is required'],
			['whitespace invite code', { inviteCode: '  ' }, 'Parameter "Invite Code" is required'],
			[
				'256-character user name',
				{ additionalFields: { invitedUserName: long } },
				'Parameter "Invited User Name" must be at most 255',
			],
		],
	),
	...refused('purchase', ['conversion', 'trackPurchase'], purchase, [
		['empty transaction id', { transactionId: EMPTY }, 'Parameter "Transaction ID" is required'],
		[
			'256-character transaction id',
			{ transactionId: long },
			'Parameter "Transaction ID" must be at most 255',
		],
		['value is text', { conversionValue: 'abc' }, 'Parameter "Conversion Value" must be a number'],
		[
			'negative value',
			{ conversionValue: -5 },
			'Parameter "Conversion Value" must not be negative',
		],
		['empty value', { conversionValue: '' }, 'Parameter "Conversion Value" is required'],
		[
			'extra fields override event_name',
			{ additionalFields: { extraBodyFields: '{"event_name": "x"}' } },
			'Parameter "Extra Body Fields" must not contain "event_name"',
		],
		[
			'extra fields are a list',
			{ additionalFields: { extraBodyFields: '[1]' } },
			'Parameter "Extra Body Fields" must be a JSON object',
		],
	]),
	...refused('custom event', ['conversion', 'trackEvent'], { eventName: 'e', invitedUserId: 'u' }, [
		['empty name', { eventName: EMPTY }, 'Parameter "Event Name" is required'],
		['named signup', { eventName: 'signup' }, 'Parameter "Event Name" must not be "signup"'],
		[
			'value is text',
			{ additionalFields: { conversionValue: 'ten' } },
			'Parameter "Conversion Value" must be a number',
		],
		[
			'256-character transaction id',
			{ additionalFields: { transactionId: long } },
			'Parameter "Transaction ID" must be at most 255',
		],
	]),
	...refused('refund', ['conversion', 'refund'], { transactionId: 'txn_1001' }, [
		['empty transaction id', { transactionId: EMPTY }, 'Parameter "Transaction ID" is required'],
		[
			'whitespace-only transaction id',
			{ transactionId: '   ' },
			'Parameter "Transaction ID" is required',
		],
		[
			'256-character transaction id',
			{ transactionId: long },
			'Parameter "Transaction ID" must be at most 255 characters (got 256)',
		],
		[
			'256-character reason',
			{ reason: 'r'.repeat(256) },
			'Parameter "Reason" must be at most 255 characters (got 256)',
		],
	]),
	...refused('login', ['promoter', 'login'], { userId: 'u' }, [
		['empty user id', { userId: EMPTY }, 'Parameter "User ID" is required'],
		[
			'bad email',
			{ additionalFields: { email: 'not-an-email' } },
			'Parameter "Email" must be an email address',
		],
		[
			'email without a domain dot',
			{ additionalFields: { email: 'a@b' } },
			'Parameter "Email" must be an email address',
		],
		[
			'unknown language',
			{ additionalFields: { lang: 'fr' } },
			'Parameter "Language" must be one of en, zh, zh-hk (got "fr")',
		],
		[
			'unknown theme',
			{ additionalFields: { themeMode: 'blue' } },
			'Parameter "Theme" must be one of light, dark (got "blue")',
		],
	]),
	...refused('get', ['promoter', 'get'], { userId: 'user_1001' }, [
		['empty user id', { userId: EMPTY }, 'Parameter "User ID" is required'],
		['256-character user id', { userId: long }, 'Parameter "User ID" must be at most 255'],
		['user id ".."', { userId: '..' }, 'Parameter "User ID" cannot be "." or ".."'],
		[
			'unknown include value',
			{ expand: ['links', 'wallet'] },
			'Parameter "Include" can only hold balances, links, statistics (got "wallet")',
		],
		[
			'unknown include in a text list',
			{ expand: 'links,foo' },
			'Parameter "Include" can only hold balances, links, statistics (got "foo")',
		],
	]),
	...refused('links', ['promoter', 'getLinks'], {}, [
		['user id "."', { userId: '.' }, 'Parameter "User ID" cannot be "." or ".."'],
	]),
	...refused('statistics', ['promoter', 'getStatistics'], { userId: 'user_1001' }, [
		[
			'month 13',
			{ startDate: '2026-13-01' },
			'Parameter "Start Date" must be a real date written YYYY-MM-DD',
		],
		[
			'unpadded date',
			{ startDate: '2026-2-1' },
			'Parameter "Start Date" must be a real date written YYYY-MM-DD',
		],
		[
			'30 February',
			{ endDate: '2026-02-30' },
			'Parameter "End Date" must be a real date written YYYY-MM-DD',
		],
		[
			'reversed range',
			{ startDate: '2026-03-02', endDate: '2026-03-01' },
			'Parameter "End Date" must not be earlier than Start Date',
		],
	]),
	...refused('balances', ['promoter', 'getBalances'], {}, [
		['whitespace-only user id', { userId: ' ' }, 'Parameter "User ID" is required'],
	]),
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
