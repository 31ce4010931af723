import { allCredentials, useSandbox } from '../helpers/sandbox';
import { runWorkflow, singleNodeWorkflow } from '../helpers/n8n';

describe('smoke', () => {
	const sandbox = useSandbox();
	it('gets a promoter', async () => {
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'promoter', operation: 'get', userId: 'user_1001', expand: ['links'] }),
			{ credentials: allCredentials(sandbox) },
		);
		console.log(JSON.stringify(result.error), JSON.stringify(result.output('Affiliate Tracking'), null, 1));
	});
});
