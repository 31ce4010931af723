/** Bad input is refused before any request, naming the parameter; accepted input goes through. */
import type { INodeParameters, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { loadPackage } from '../../support/n8n/core/packageLoader';
import { runWorkflow } from '../../support/n8n/core/runWorkflow';
import { singleNodeWorkflow } from '../../support/n8n/core/workflows';
import { allCredentials, useSandbox } from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';

const long = 'x'.repeat(256);
// A literal empty required field is refused by n8n itself before the run; data arrives by expression.
const EMPTY = '={{ "" }}';
const relay = { productKey: 'prd_photopal', targetProductKey: 'prd_videomax', userId: 'u1' };
const purchase = { invitedUserId: 'buyer_1', transactionId: 't1', conversionValue: 10 };
const debugCode = { ...relay, sourceProductKey: 'prd_photopal' };
const signup = { invitedUserId: 'u', inviteCode: 'ADA2026' };

const op = (resource: string, operation: string, parameters: INodeParameters): INodeParameters => ({
	resource,
	operation,
	...parameters,
});

/** One operation's refused cases, each a change to its valid parameters and the message. */
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

/** The node's messages for refused input, each written once. */
const required = (label: string) => `Parameter "${label}" is required`;
const atMost255 = (label: string) => `Parameter "${label}" must be at most 255`;
const got256 = (label: string) => `${atMost255(label)} characters (got 256)`;
const NOT_JSON_OBJECT = 'Parameter "Extra User Info" must be a JSON object';
const NOT_NUMBER = 'Parameter "Conversion Value" must be a number';
const NOT_EMAIL = 'Parameter "Email" must be an email address';
const DOTS = 'Parameter "User ID" cannot be "." or ".."';
const notDate = (label: string) => `Parameter "${label}" must be a real date written YYYY-MM-DD`;
const notOneOf = (label: string, allowed: string, got: string) =>
	`Parameter "${label}" must be one of ${allowed} (got "${got}")`;
const notIncluded = (got: string) =>
	`Parameter "Include" can only hold balances, links, statistics (got "${got}")`;

/** The change that sets fields of the Additional Fields collection; Extra User Info is one. */
const additional = (fields: INodeParameters): INodeParameters => ({ additionalFields: fields });
const extraUserInfo = (extra: string) => additional({ extra });

const BAD_INPUT: Array<[string, INodeParameters, string]> = [
	...refused('authorize', ['authorization', 'authorize'], relay, [
		['empty product key', { productKey: EMPTY }, required('Product Key')],
		['whitespace-only target', { targetProductKey: '   ' }, required('Target Product Key')],
		['256-character user id', { userId: long }, got256('User ID')],
		['extra is a list', extraUserInfo('[1, 2]'), NOT_JSON_OBJECT],
		[
			'extra is invalid JSON',
			extraUserInfo('{"name": '),
			`${NOT_JSON_OBJECT}; the text is not valid JSON`,
		],
		['extra is a JSON string', extraUserInfo('"Ada"'), NOT_JSON_OBJECT],
	]),
	...refused('authorize and redirect', ['authorization', 'authorizeAndRedirect'], relay, [
		['empty user id', { userId: EMPTY }, required('User ID')],
		['extra is null', extraUserInfo('null'), NOT_JSON_OBJECT],
	]),
	...refused('exchange code', ['authorization', 'exchangeCode'], {}, [
		['empty', { code: EMPTY }, required('Authorization Code')],
		['256 characters', { code: long }, atMost255('Authorization Code')],
	]),
	...refused('debug code', ['authorization', 'getDebugCode'], debugCode, [
		['empty source', { sourceProductKey: EMPTY }, required('Source Product Key')],
		['extra is a number', extraUserInfo('42'), NOT_JSON_OBJECT],
	]),
	...refused('signup', ['conversion', 'trackSignup'], signup, [
		['empty invited user', { invitedUserId: EMPTY }, required('Invited User ID')],
		['whitespace invite code', { inviteCode: '  ' }, required('Invite Code')],
		[
			'256-character user name',
			additional({ invitedUserName: long }),
			atMost255('Invited User Name'),
		],
	]),
	...refused('purchase', ['conversion', 'trackPurchase'], purchase, [
		['empty transaction id', { transactionId: EMPTY }, required('Transaction ID')],
		['256-character transaction id', { transactionId: long }, atMost255('Transaction ID')],
		['value is text', { conversionValue: 'abc' }, NOT_NUMBER],
		[
			'negative value',
			{ conversionValue: -5 },
			'Parameter "Conversion Value" must not be negative',
		],
		['empty value', { conversionValue: '' }, required('Conversion Value')],
		[
			'extra fields override event_name',
			additional({ extraBodyFields: '{"event_name": "x"}' }),
			'Parameter "Extra Body Fields" must not contain "event_name"',
		],
		[
			'extra fields are a list',
			additional({ extraBodyFields: '[1]' }),
			'Parameter "Extra Body Fields" must be a JSON object',
		],
	]),
	...refused('custom event', ['conversion', 'trackEvent'], { eventName: 'e', invitedUserId: 'u' }, [
		['empty name', { eventName: EMPTY }, required('Event Name')],
		['named signup', { eventName: 'signup' }, 'Parameter "Event Name" must not be "signup"'],
		['value is text', additional({ conversionValue: 'ten' }), NOT_NUMBER],
		[
			'256-character transaction id',
			additional({ transactionId: long }),
			atMost255('Transaction ID'),
		],
	]),
	...refused('refund', ['conversion', 'refund'], { transactionId: 'txn_1001' }, [
		['empty transaction id', { transactionId: EMPTY }, required('Transaction ID')],
		['whitespace-only transaction id', { transactionId: '   ' }, required('Transaction ID')],
		['256-character transaction id', { transactionId: long }, got256('Transaction ID')],
		['256-character reason', { reason: 'r'.repeat(256) }, got256('Reason')],
	]),
	...refused('login', ['promoter', 'login'], { userId: 'u' }, [
		['empty user id', { userId: EMPTY }, required('User ID')],
		['bad email', additional({ email: 'not-an-email' }), NOT_EMAIL],
		['email without a domain dot', additional({ email: 'a@b' }), NOT_EMAIL],
		['unknown language', additional({ lang: 'fr' }), notOneOf('Language', 'en, zh, zh-hk', 'fr')],
		['unknown theme', additional({ themeMode: 'blue' }), notOneOf('Theme', 'light, dark', 'blue')],
	]),
	...refused('get', ['promoter', 'get'], { userId: 'user_1001' }, [
		['empty user id', { userId: EMPTY }, required('User ID')],
		['256-character user id', { userId: long }, atMost255('User ID')],
		['user id ".."', { userId: '..' }, DOTS],
		['unknown include value', { expand: ['links', 'wallet'] }, notIncluded('wallet')],
		['unknown include in a text list', { expand: 'links,foo' }, notIncluded('foo')],
	]),
	...refused('links', ['promoter', 'getLinks'], {}, [['user id "."', { userId: '.' }, DOTS]]),
	...refused('statistics', ['promoter', 'getStatistics'], { userId: 'user_1001' }, [
		['month 13', { startDate: '2026-13-01' }, notDate('Start Date')],
		['unpadded date', { startDate: '2026-2-1' }, notDate('Start Date')],
		['30 February', { endDate: '2026-02-30' }, notDate('End Date')],
		[
			'reversed range',
			{ startDate: '2026-03-02', endDate: '2026-03-01' },
			'Parameter "End Date" must not be earlier than Start Date',
		],
	]),
	...refused('balances', ['promoter', 'getBalances'], {}, [
		['whitespace-only user id', { userId: ' ' }, required('User ID')],
	]),
];
describe(scenario('actions.validation'), () => {
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
