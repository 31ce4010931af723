// @ts-check
'use strict';
/**
 * The hand-built alternative's HTTP Request node (V4.2), the same in both benchmarks: the URL and
 * the three signature headers come from each item, which a Code node prepared.
 * @param {string} apiKey
 */
function handBuiltHttpRequestParameters(apiKey) {
	return {
		url: '={{ $json.url }}',
		sendHeaders: true,
		headerParameters: {
			parameters: [
				{ name: 'X-Api-Key', value: apiKey },
				{ name: 'X-Api-Timestamp', value: '={{ $json.timestamp }}' },
				{ name: 'X-Api-Sign', value: '={{ $json.sign }}' },
			],
		},
		options: {},
	};
}

module.exports = { handBuiltHttpRequestParameters };
