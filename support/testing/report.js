// @ts-check
'use strict';
/** Prints a result table into the test log (the figures quoted in closing notes). */
function printTable(/** @type {string} */ title, /** @type {string[]} */ rows) {
	process.stdout.write(`\n${title}\n${rows.join('\n')}\n`);
}

module.exports = { printTable };
