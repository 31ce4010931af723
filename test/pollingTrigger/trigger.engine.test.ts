/** The Affiliate Tracking Trigger through n8n-core's PollContext against the sandbox. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { pollTrigger, type PollOptions, type PollResult } from '../../support/n8n/core/pollTrigger';
import { allCredentials, useSandbox } from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';

const PRODUCT = 'prd_videomax';
const RESULTS: INodeParameters = {
	event: 'promoterResultsChanged',
	userIds: 'user_1001\nuser_1002',
};
const BALANCES: INodeParameters = {
	event: 'promoterBalanceChanged',
	userIds: 'user_1001, user_1002',
};

const json = (result: PollResult) => (result.items ?? []).map((item) => item.json);
const CHANGE_ID = expect.stringMatching(/^[0-9a-f]{16}$/);
const MANUAL = { mode: 'manual' } as const;
/** An item of `user_id` whose increase holds these figures. */
const increased = (user_id: string, increase: IDataObject) =>
	expect.objectContaining({ user_id, increase: expect.objectContaining(increase) });
const changeIds = (result: PollResult) => json(result).map((item) => item.change_id);

describe(scenario('pollingTrigger.polls'), () => {
	const sandbox = useSandbox();
	const poll = async (
		parameters: INodeParameters,
		staticData?: IDataObject,
		options: Partial<Pick<PollOptions, 'mode' | 'credentialId' | 'withoutPollBudget'>> = {},
	) =>
		await pollTrigger(parameters, {
			credentials: allCredentials(sandbox),
			mode: 'trigger',
			staticData,
			...options,
		});

	it('polls as on n8n before 2.38, whose poll context has no getPollBudgetMs', async () => {
		const first = await poll(RESULTS, undefined, { withoutPollBudget: true });
		expect(first.thrown).toBeUndefined();
		expect(first.items).toBeNull();
		sandbox.instrumentation.addActivity(PRODUCT, 'user_1001', { clicks: 2 });
		const changed = await poll(RESULTS, first.staticData, { withoutPollBudget: true });
		expect(changed.thrown).toBeUndefined();
		expect(json(changed)).toEqual([increased('user_1001', { clicks: 2 })]);
	});

	it('Promoter Results Changed: the first poll records, later ones emit increases only', async () => {
		const first = await poll(RESULTS);
		expect(first.thrown).toBeUndefined();
		expect(first.items).toBeNull();
		expect(first.reportedErrors).toEqual([]);
		const stored = first.staticData['node:Affiliate Tracking Trigger'] as IDataObject;
		expect(stored.event).toBe('promoterResultsChanged');
		expect(Object.keys(stored.promoters as IDataObject)).toEqual(['user_1001', 'user_1002']);
		expect(sandbox.requestCount).toBe(2);

		const unchanged = await poll(RESULTS, first.staticData);
		expect(unchanged.items).toBeNull();

		sandbox.instrumentation.addActivity(PRODUCT, 'user_1002', { clicks: 3, payingCustomers: 1 });
		const changed = await poll(RESULTS, unchanged.staticData);
		expect(changed.reportedErrors).toEqual([]);
		const before = (stored.promoters as Record<string, IDataObject>).user_1002;
		expect(json(changed)).toEqual([
			{
				change_id: CHANGE_ID,
				user_id: 'user_1002',
				clicks: Number(before.clicks) + 3,
				signups: Number(before.signups) + 1,
				paying_customers: Number(before.paying_customers) + 1,
				rewards_accrued: (Number(before.rewards_accrued) + 1).toFixed(2),
				rewards_paid: before.rewards_paid,
				currency: 'USD',
				increase: {
					clicks: 3,
					signups: 1,
					paying_customers: 1,
					rewards_accrued: '1.00',
					rewards_paid: '0.00',
				},
			},
		]);
		expect(changed.items?.[0].pairedItem).toBeUndefined();

		expect((await poll(RESULTS, changed.staticData)).items).toBeNull();
	});

	it('Figures That Count: only the chosen figures going up make a change', async () => {
		const parameters = { ...RESULTS, options: { figures: ['paying_customers'] } };
		const first = await poll(parameters);
		sandbox.instrumentation.addActivity(PRODUCT, 'user_1001', { clicks: 5 });
		const clicksOnly = await poll(parameters, first.staticData);
		expect(clicksOnly.items).toBeNull();
		sandbox.instrumentation.addActivity(PRODUCT, 'user_1001', { payingCustomers: 2 });
		const paying = await poll(parameters, clicksOnly.staticData);
		expect(json(paying)).toEqual([increased('user_1001', { clicks: 0, paying_customers: 2 })]);
	});

	it('Promoter Balance Changed: one item per promoter and currency that changed, old and new', async () => {
		const first = await poll(BALANCES);
		expect(first.items).toBeNull();
		const stored = first.staticData['node:Affiliate Tracking Trigger'] as IDataObject;
		const oldUsd = (stored.promoters as Record<string, Record<string, IDataObject>>).user_1001.USD;

		sandbox.instrumentation.addActivity(PRODUCT, 'user_1001', {
			credit: { currency: 'USD', cents: 2500 },
		});
		sandbox.instrumentation.addActivity(PRODUCT, 'user_1002', {
			credit: { currency: 'GBP', cents: 700 },
		});
		const changed = await poll(BALANCES, first.staticData);
		expect(json(changed)).toEqual([
			{
				change_id: CHANGE_ID,
				user_id: 'user_1001',
				currency: 'USD',
				old: oldUsd,
				new: { ...oldUsd, available: (Number(oldUsd.available) + 25).toFixed(2) },
			},
			{
				change_id: CHANGE_ID,
				user_id: 'user_1002',
				currency: 'GBP',
				old: null,
				new: { available: '7.00', pending: '0.00', withdrawing: '0.00' },
			},
		]);
		// EUR of user_1001 and USD of user_1002 did not change: no item for them.
		expect((await poll(BALANCES, changed.staticData)).items).toBeNull();
	});

	it.each([
		['Promoter Results Changed', RESULTS, { clicks: 2, payingCustomers: 1 }],
		['Promoter Balance Changed', BALANCES, { credit: { currency: 'USD', cents: 1250 } }],
	])(
		'%s: a poll run again on the static data n8n did not save gives the same change_id',
		async (_name, parameters, activity) => {
			const first = await poll(parameters);
			sandbox.instrumentation.addActivity(PRODUCT, 'user_1001', activity);
			const changed = await poll(parameters, first.staticData);
			expect(changeIds(changed)).toEqual([CHANGE_ID]);
			// The main died before n8n saved the second poll's static data: the next poll reads the
			// same figures against the first poll's state and emits the change again, same ID.
			const again = await poll(parameters, first.staticData);
			expect(json(again)).toEqual(json(changed));
			// With the state saved, the next change of the same promoter has another ID.
			sandbox.instrumentation.addActivity(PRODUCT, 'user_1001', activity);
			const next = await poll(parameters, changed.staticData);
			expect(changeIds(next)).toEqual([CHANGE_ID]);
			expect(changeIds(next)).not.toEqual(changeIds(changed));
		},
	);

	it('a balance back at earlier amounts that changes the same way again gets a new change_id', async () => {
		const credit = (cents: number) =>
			sandbox.instrumentation.addActivity(PRODUCT, 'user_1001', {
				credit: { currency: 'USD', cents },
			});
		const first = await poll(BALANCES);
		credit(500);
		const up = await poll(BALANCES, first.staticData);
		credit(-500);
		const down = await poll(BALANCES, up.staticData);
		credit(500);
		const upAgain = await poll(BALANCES, down.staticData);
		expect(json(upAgain).map(({ old, new: amounts }) => ({ old, new: amounts }))).toEqual(
			json(up).map(({ old, new: amounts }) => ({ old, new: amounts })),
		);
		const ids = [...changeIds(up), ...changeIds(down), ...changeIds(upAgain)];
		expect(ids).toHaveLength(3);
		expect(new Set(ids).size).toBe(3);
	});

	it('forgets promoters removed from the watch list; a promoter added later starts silent', async () => {
		const first = await poll(RESULTS);
		const fewer = await poll({ ...RESULTS, userIds: 'user_1001' }, first.staticData);
		const promoters = (fewer.staticData['node:Affiliate Tracking Trigger'] as IDataObject)
			.promoters as IDataObject;
		expect(Object.keys(promoters)).toEqual(['user_1001']);
		sandbox.instrumentation.addActivity(PRODUCT, 'user_1002', { clicks: 1 });
		const readded = await poll(RESULTS, fewer.staticData);
		expect(readded.items).toBeNull();
	});

	it('a promoter that is not found is reported once per poll; the others are still polled', async () => {
		const parameters = { ...RESULTS, userIds: ['user_1001', 'nobody_here', 'user_1002'] };
		const first = await poll(parameters);
		expect(first.thrown).toBeUndefined();
		expect(first.reportedErrors).toHaveLength(1);
		const [error] = first.reportedErrors as Array<Error & { description?: string }>;
		expect(error.message).toBe('1 of 3 watched promoters could not be read');
		expect(error.description).toContain(
			'nobody_here: The promoter was not found (code 1000001). Code 1000001. The user is not a promoter of this product yet: call Promoter Login for the user first.',
		);
		sandbox.instrumentation.addActivity(PRODUCT, 'user_1001', { clicks: 1 });
		const second = await poll(parameters, first.staticData);
		expect(json(second).map((item) => item.user_id)).toEqual(['user_1001']);
		expect(second.reportedErrors).toHaveLength(1);
	});

	it('a key without promoter:read is reported as one error, not a crash', async () => {
		const result = await poll(RESULTS, undefined, { credentialId: 'adjustonly-v2' });
		expect(result.thrown).toBeUndefined();
		expect(result.items).toBeNull();
		const messages = result.reportedErrors.map((error) => error.message);
		expect(messages).toEqual(['2 of 2 watched promoters could not be read']);
		expect((result.reportedErrors[0] as Error & { description?: string }).description).toContain(
			'user_1001: Missing required permission: promoter:read (code 6000000)',
		);
	});

	it('Fetch Test Event shows the current figures, shaped as events, and remembers nothing', async () => {
		const results = await poll(RESULTS, undefined, MANUAL);
		expect(json(results)).toEqual([
			expect.objectContaining({
				change_id: CHANGE_ID,
				user_id: 'user_1001',
				increase: expect.objectContaining({ clicks: 0 }),
			}),
			expect.objectContaining({ user_id: 'user_1002', currency: 'USD' }),
		]);
		expect(results.staticData).toEqual({});
		const balances = await poll(BALANCES, undefined, MANUAL);
		const shown = json(balances).map((item) => `${item.user_id} ${item.currency}`);
		expect(shown).toEqual(['user_1001 EUR', 'user_1001 USD', 'user_1002 USD']);
		const failing = await poll({ ...RESULTS, userIds: 'nobody_here' }, undefined, MANUAL);
		expect(failing.thrown?.message).toBe('1 of 1 watched promoters could not be read');
	});

	const IDS = 'Parameter "Promoter User IDs"';
	it.each([
		['empty', { userIds: ' , \n' }, `${IDS} must name at least one promoter user ID`],
		[
			'longer than the cap',
			{ userIds: 'a,b,c', options: { maxPromoters: 2 } },
			`${IDS} holds 3 user IDs, more than Max Promoters per Poll (2). Raise that option (up to 1000), or split the list across several triggers.`,
		],
		[
			'an over-long ID',
			{ userIds: 'x'.repeat(256) },
			`${IDS} holds an ID longer than 255 characters`,
		],
	])('a watch list %s stops the poll before any request', async (_name, parameters, message) => {
		const result = await poll({ event: 'promoterResultsChanged', ...parameters });
		expect(result.thrown?.message).toContain(message);
		expect(sandbox.requestCount).toBe(0);
	});
});
