/**
 * A diagnostic preload for the n8n process the bench starts (`npm run bench -- --only stall
 * --n8n-probe FILE`): it writes one line per event to FILE, each with the epoch ms it began
 * (Date.now(), the clock the bench's log uses), so that a stall run can be placed in time:
 *   db <start> <ms> <method> <sql>   every SQLite call of n8n (sqlite3's Database methods): from
 *                                    the call to its callback, i.e. the query plus the wait for a
 *                                    turn of n8n's event loop to hear its answer
 *   wh <start> <ms>                  every request to a webhook path holding "poll" (the stall
 *                                    poller's): from its arrival to its answer
 *   el <at> <ms>                     how late a 25 ms timer fired: the longest turn of the loop
 * Main n8n process only (n8n's task runners, forked with the same node arguments, write nothing).
 * Reads sqlite3 from n8n's own node_modules (N8N_PROBE_MODULES, set by the bench).
 */
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');

const isMain = /[\\/]n8n$/.test(process.argv[1] ?? '');
const file = process.env.N8N_PROBE_FILE;
if (isMain && file) {
	const out = fs.createWriteStream(file, { flags: 'a' });
	const write = (line) => out.write(`${line}\n`);
	let last = Date.now();
	setInterval(() => {
		const now = Date.now();
		write(`el ${now} ${now - last - 25}`);
		last = now;
	}, 25).unref();
	try {
		const sqlite3 = require(path.join(process.env.N8N_PROBE_MODULES ?? '', 'sqlite3'));
		for (const method of ['run', 'all', 'get', 'exec', 'each']) {
			const original = sqlite3.Database.prototype[method];
			sqlite3.Database.prototype[method] = function (sql, ...args) {
				const start = Date.now();
				const at = args.findIndex((a) => typeof a === 'function');
				if (at >= 0) {
					const callback = args[at];
					args[at] = function (...result) {
						write(`db ${start} ${Date.now() - start} ${method} ${String(sql).replace(/\s+/g, ' ').slice(0, 70)}`);
						return callback.apply(this, result);
					};
				}
				return original.call(this, sql, ...args);
			};
		}
	} catch (error) {
		write(`probe: sqlite3 not found (${error}); no db lines`);
	}
	const emit = http.Server.prototype.emit;
	http.Server.prototype.emit = function (event, req, res) {
		if (event === 'request' && typeof req?.url === 'string' && req.url.includes('poll')) {
			const start = Date.now();
			res.on('finish', () => write(`wh ${start} ${Date.now() - start}`));
		}
		return emit.apply(this, arguments);
	};
}
