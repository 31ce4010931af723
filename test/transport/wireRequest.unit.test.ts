/**
 * The one function that fixes a request's bytes (toWireRequest), and that every way in comes to
 * the same bytes: the options the node hands n8n read back by the credential, and the package
 * root's buildSignedRequest.
 */
import { createHash, createHmac } from 'node:crypto';

import { readWireRequest } from '../../nodes/shared/transport/httpRequestAdapter';
import { buildSignedRequest, helperOptionsOf } from '../../nodes/shared/transport/requestSigner';
import {
	apiRoot,
	toWireRequest,
	type OperationRequest,
} from '../../nodes/shared/transport/wireRequest';
import { scenario } from '../../support/scenarios';

const BASE = 'https://api.example.com';
const ROOT = `${BASE}/api/open/v1`;
const FORM = 'application/x-www-form-urlencoded';

describe(scenario('transport.wireRequest'), () => {
	it('a POST: the URL below the API prefix, the body serialized once as JSON', () => {
		expect(
			toWireRequest(
				{ method: 'POST', path: '/track/refund', body: { transaction_id: 't1', n: 1 } },
				apiRoot(BASE),
			),
		).toEqual({
			method: 'POST',
			url: `${ROOT}/track/refund`,
			path: '/api/open/v1/track/refund',
			query: '',
			body: '{"transaction_id":"t1","n":1}',
			contentType: 'application/json',
		});
	});

	it('a POST without a body sends an empty JSON object', () => {
		const wire = toWireRequest({ method: 'post', path: '/promoter/login' }, ROOT);
		expect([wire.method, wire.body, wire.contentType]).toEqual(['POST', '{}', 'application/json']);
	});

	it('a GET: the query written out RFC 3986-encoded in the given order, no body', () => {
		const wire = toWireRequest(
			{
				method: 'GET',
				path: '/promoters/u%201/statistics',
				query: { start_date: '2026-03-01', skipped: undefined, note: "a b&c'", n: 5 },
				body: { ignored: true },
			},
			ROOT,
		);
		expect(wire).toEqual({
			method: 'GET',
			url: `${ROOT}/promoters/u%201/statistics?start_date=2026-03-01&note=a%20b%26c%27&n=5`,
			path: '/api/open/v1/promoters/u%201/statistics',
			query: 'start_date=2026-03-01&note=a%20b%26c%27&n=5',
			body: '',
			contentType: undefined,
		});
	});

	it('the path in the form the URL parser sends it; a query it carries comes first', () => {
		const wire = toWireRequest(
			{
				method: 'GET',
				path: '/promoters/a b?x=1',
				query: [
					['y', '2'],
					['y', '3'],
				],
			},
			ROOT,
		);
		expect([wire.path, wire.query, wire.url]).toEqual([
			'/api/open/v1/promoters/a%20b',
			'x=1&y=2&y=3',
			`${ROOT}/promoters/a%20b?x=1&y=2&y=3`,
		]);
	});

	it('bytes already fixed are sent as they are', () => {
		const wire = toWireRequest(
			{
				method: 'POST',
				path: '/track/refund',
				body: { not: 'this' },
				serializedBody: { bytes: 'transaction_id=t+1', contentType: FORM },
			},
			ROOT,
		);
		expect([wire.body, wire.contentType]).toEqual(['transaction_id=t+1', FORM]);
	});
});

describe(scenario('transport.sameBytes'), () => {
	const requests: OperationRequest[] = [
		{ method: 'POST', path: '/track/refund', body: { transaction_id: 't 1', reason: '退款' } },
		{ method: 'POST', path: '/promoter/login' },
		{
			method: 'GET',
			path: `/promoters/${encodeURIComponent('a/b ü')}/statistics`,
			query: { start_date: '2026-03-01', end_date: '2026-03-31' },
		},
		{ method: 'GET', path: '/promoters/u1', query: { expand: 'links,statistics' } },
	];

	it.each(requests)(
		'the credential reads back what the node hands n8n: $method $path',
		(request) => {
			const wire = toWireRequest(request, apiRoot(BASE));
			expect(readWireRequest(helperOptionsOf(wire, '1767225600'), BASE)).toEqual(wire);
		},
	);

	it.each(requests)('buildSignedRequest sends the wire request: $method $path', (request) => {
		const secret = 'sk_wire_test';
		const signed = buildSignedRequest({
			...request,
			baseUrl: `${BASE}/`,
			apiKey: 'pk_wire',
			apiSecret: secret,
			timestamp: 1767225600,
		});
		const wire = toWireRequest(request, apiRoot(BASE));
		expect(signed.url).toBe(wire.url);
		expect(signed.body).toBe(request.method === 'POST' ? wire.body : undefined);
		const stringToSign = `PS-HMAC-SHA256\n${wire.method}\n${wire.path}\n${wire.query}\n1767225600\n${createHash('sha256').update(wire.body).digest('hex')}`;
		expect(signed.headers['X-Api-Sign']).toBe(
			createHmac('sha256', secret).update(stringToSign).digest('hex'),
		);
	});
});
