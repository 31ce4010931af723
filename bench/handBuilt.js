// @ts-check
'use strict';
/**
 * The hand-built alternative's HTTP Request node (V4.2), the same in the three benchmarks: the URL
 * and the three signature headers come from each item, which a Code node prepared. With
 * `rawJsonBody` (an expression giving the exact JSON string the Code node signed) it POSTs that
 * string as sent, with Content-Type application/json (bench:queue's refund); without, it GETs.
 * @param {string} apiKey
 * @param {{ rawJsonBody?: string }} [options]
 */
function handBuiltHttpRequestParameters(apiKey, { rawJsonBody } = {}) {
	return {
		...(rawJsonBody === undefined ? {} : { method: 'POST' }),
		url: '={{ $json.url }}',
		sendHeaders: true,
		headerParameters: {
			parameters: [
				{ name: 'X-Api-Key', value: apiKey },
				{ name: 'X-Api-Timestamp', value: '={{ $json.timestamp }}' },
				{ name: 'X-Api-Sign', value: '={{ $json.sign }}' },
			],
		},
		...(rawJsonBody === undefined
			? {}
			: {
					sendBody: true,
					contentType: 'raw',
					rawContentType: 'application/json',
					body: rawJsonBody,
				}),
		options: {},
	};
}

module.exports = { handBuiltHttpRequestParameters };
