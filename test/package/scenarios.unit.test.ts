/**
 * The scenario table (support/scenarios.js) against the tests: every scenario is named by exactly
 * one describe, it or end-to-end check, in a test file of the scenario's layer (the file's suffix
 * under test/, e2e/ for e2e), and CONTRIBUTING.md's table lists the same rows.
 */
import { scenario, SCENARIOS } from '../../support/scenarios';
import { layerOfFile, scenarioNamings } from '../../support/testing/scenarioNamings';
import { readRepoFile } from '../../support/testing/repoFile';

const NAMINGS = scenarioNamings();
const placesOf = (id: string) =>
	NAMINGS.filter((naming) => naming.id === id).map(({ path, line }) => `${path}:${line}`);

/**
 * CONTRIBUTING.md's rows as [id, layer, why], between the table's markers: the scenarios below e2e
 * as `| id | layer |`, then the e2e ones as `| id | why |` under a header that says so.
 */
function contributingRows(): string[][] {
	const [, marked = ''] = readRepoFile('CONTRIBUTING.md').split('<!-- scenarios -->');
	let e2e = false;
	return marked
		.split('<!-- /scenarios -->')[0]
		.split('\n')
		.filter((line) => line.startsWith('|') && !line.startsWith('| -'))
		.flatMap((line) => {
			const [id, cell] = line
				.slice(1, -1)
				.split('|')
				.map((text) => text.trim().replace(/^`|`$/g, ''));
			if (!line.startsWith('| `')) {
				e2e = cell === 'why real n8n';
				return [];
			}
			return [e2e ? [id, 'e2e', cell] : [id, cell, '']];
		});
}

describe(scenario('package.scenarios'), () => {
	it('lists each id once', () => {
		const ids = SCENARIOS.map(({ id }) => id);
		expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
	});

	it('every scenario is named by exactly one test', () => {
		const wrong = SCENARIOS.map(({ id }) => ({ id, places: placesOf(id) })).filter(
			({ places }) => places.length !== 1,
		);
		expect(wrong).toEqual([]);
	});

	it('names only ids of the table, each as a string literal', () => {
		const known = new Set(SCENARIOS.map(({ id }) => id));
		expect(NAMINGS.filter(({ id }) => id === null || !known.has(id))).toEqual([]);
	});

	it("each is named in a test of the scenario's layer", () => {
		const misplaced = NAMINGS.flatMap(({ id, path, line }) => {
			const row = SCENARIOS.find((candidate) => candidate.id === id);
			const layer = layerOfFile(path);
			return row === undefined || row.layer === layer
				? []
				: [`${id} is ${row.layer}, named in ${path}:${line} (${layer ?? 'no test file'})`];
		});
		expect(misplaced).toEqual([]);
	});

	it('an e2e scenario says what needs real n8n; the others need no reason', () => {
		expect(
			SCENARIOS.filter(({ layer, why }) => (layer === 'e2e') !== (why !== undefined)).map(
				({ id }) => id,
			),
		).toEqual([]);
	});

	it("CONTRIBUTING.md's table is this table", () => {
		expect(contributingRows()).toEqual(
			SCENARIOS.map(({ id, layer, why }) => [id, layer, why ?? '']),
		);
	});
});
