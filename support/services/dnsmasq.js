// @ts-check
'use strict';
/**
 * dnsmasq (Debian's dnsmasq-base, installed by scripts/setup-system.sh, never by a test) as a
 * local name server on 127.0.0.1 and a free port, in a folder of the run: what Docker's embedded
 * DNS is to a Compose deployment. Its records live in a hosts file it re-reads on every change
 * (`--hostsdir`), so a test moves a name to another address as `docker compose up -d` moves a
 * re-created container, without restarting it. Answers carry TTL 0; it forwards nothing.
 * Used by test:upgrade's re-created round (e2e/upgrade/frontDoorRounds.js).
 */
const { spawn } = require('node:child_process');
const dgram = require('node:dgram');
const fs = require('node:fs');
const path = require('node:path');

const { missing } = require('./services');
const { freePort, stopProcess, track, waitUntil } = require('./processes');

const DNSMASQ = process.env.DNSMASQ_BINARY ?? '/usr/sbin/dnsmasq';

/** Fails at once, naming the setup script, when dnsmasq is missing. */
function requireDnsmasq() {
	if (!fs.existsSync(DNSMASQ)) throw missing(`dnsmasq is missing at ${DNSMASQ}`);
}

/**
 * The first IPv4 address in a DNS answer to an A query for `name`, or null (no such name).
 * @param {number} port @param {string} name @returns {Promise<string | null>}
 */
function resolveA(port, name) {
	const id = Math.floor(Math.random() * 0xffff);
	const labels = name.split('.').map((label) => [label.length, ...Buffer.from(label)]);
	const query = Buffer.from([
		...[id >> 8, id & 0xff, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0],
		...labels.flat(),
		...[0, 0, 1, 0, 1],
	]);
	return new Promise((resolve, reject) => {
		const socket = dgram.createSocket('udp4');
		const timer = setTimeout(() => {
			socket.close();
			reject(new Error(`no DNS answer from 127.0.0.1:${port}`));
		}, 1000);
		socket.on('message', (answer) => {
			clearTimeout(timer);
			socket.close();
			const count = answer.readUInt16BE(6);
			// An A record's last 4 bytes are its address; dnsmasq answers with the name compressed.
			resolve(count > 0 ? [...answer.subarray(answer.length - 4)].join('.') : null);
		});
		socket.send(query, port, '127.0.0.1');
	});
}

/**
 * Starts dnsmasq with no records. `set(name, address)` points a name at an address (null: the name
 * does not resolve) and resolves once dnsmasq answers so.
 * @param {string} folder the run's folder; dnsmasq's own is `<folder>/dnsmasq`
 */
async function startDnsmasq(folder) {
	requireDnsmasq();
	const home = path.join(folder, 'dnsmasq');
	const hostsDir = path.join(home, 'hosts');
	fs.mkdirSync(hostsDir, { recursive: true });
	const port = await freePort();
	const child = track(
		spawn(
			DNSMASQ,
			[
				'--keep-in-foreground',
				'--conf-file=/dev/null',
				'--no-resolv',
				'--no-hosts',
				'--no-poll',
				// Names under .test not in the records: no such name (NXDOMAIN), as Docker answers.
				'--local=/test/',
				`--hostsdir=${hostsDir}`,
				`--port=${port}`,
				'--listen-address=127.0.0.1',
				'--bind-interfaces',
				`--pid-file=${path.join(home, 'dnsmasq.pid')}`,
				'--user=root',
				`--log-facility=${path.join(home, 'dnsmasq.log')}`,
			],
			{ stdio: ['ignore', 'ignore', 'pipe'], detached: true },
		),
		{ group: true },
	);
	/** @type {string[]} */
	const stderr = [];
	child.stderr?.on('data', (chunk) => stderr.push(String(chunk)));
	const probe = `probe-${port}.test`;
	/** @type {Map<string, string>} */
	const records = new Map();
	/** @param {string} name @param {string | null} address */
	const set = async (name, address) => {
		if (address === null) records.delete(name);
		else records.set(name, address);
		const file = path.join(hostsDir, 'records');
		const text = [...records].map(([n, a]) => `${a} ${n}\n`).join('');
		// A new file renamed into place: dnsmasq never reads half of one.
		fs.writeFileSync(`${file}.new`, text);
		fs.renameSync(`${file}.new`, file);
		await waitUntil(
			() =>
				resolveA(port, name).then(
					(answer) => answer === address,
					() => false,
				),
			{
				timeoutMs: 10_000,
				intervalMs: 50,
				child,
				what: `dnsmasq answering ${name} → ${address ?? 'no such name'}`,
				detail: () => stderr.join('').trim(),
			},
		);
	};
	await set(probe, '127.0.0.9');
	await set(probe, null);
	return {
		/** nginx's `resolver` address. */
		address: `127.0.0.1:${port}`,
		set,
		async stop() {
			await stopProcess(child);
		},
	};
}

module.exports = { requireDnsmasq, startDnsmasq };
