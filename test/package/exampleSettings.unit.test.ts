/**
 * What the examples pin so that a careless instance cannot undo it: example (d) keeps no
 * execution and no node's progress (its items hold the promoter center's token and Promoter
 * Login's session, and `EXECUTIONS_DATA_SAVE_ON_PROGRESS=true` would write each to the database),
 * and example (b)'s Google Sheets node writes raw values, so a promoter's name such as
 * `=IMPORTXML(…)` is never read as a formula.
 */
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

interface Workflow {
	settings?: Record<string, unknown>;
	nodes: { name: string; type: string; parameters: Record<string, unknown> }[];
}

const exampleOf = (file: string) => JSON.parse(readRepoFile(`examples/${file}`)) as Workflow;

describe(scenario('package.exampleSettings'), () => {
	it('(d) saves no execution, failed, manual or in progress', () => {
		expect(exampleOf('d-promoter-center-embed.json').settings).toMatchObject({
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'none',
			saveManualExecutions: false,
			saveExecutionProgress: false,
		});
	});

	it('(b) writes raw values to Google Sheets, never formulas', () => {
		const sheets = exampleOf('b-daily-promoter-statistics.json').nodes.filter(
			(node) => node.type === 'n8n-nodes-base.googleSheets',
		);
		expect(sheets.length).toBeGreaterThan(0);
		for (const node of sheets)
			expect([node.name, node.parameters.options]).toEqual([
				node.name,
				expect.objectContaining({ cellFormat: 'RAW' }),
			]);
	});
});
