/**
 * Reads a V8 CPU profile written by `npm run bench -- --cpu-prof DIR` (n8n's process) and prints
 * where the time went: the functions with the most self time, and for each `name@file` pattern
 * given, the time spent in it including what it called (each sample counted once).
 *
 *   node scripts/bench/profile.mjs <file.cpuprofile> [--top 25] [pattern ...]
 *   e.g. node scripts/bench/profile.mjs /tmp/prof/CPU.*.cpuprofile authenticate@credentials-helper
 *
 * A pattern is `functionName@urlPart` (either part may be empty: `@/node_modules/n8n-nodes-conversation-inbox/`);
 * `a+b` counts the samples whose stack holds both (e.g. authenticate@credentials-helper+httpRequestWithAuthentication@).
 * `--ours` adds the functions of this package (nodes/, credentials/, the installed package) by self
 * time and by time including what they called (issue 37: "the top functions of ours"), leaving out
 * the loading of modules (the node's description is built once, when n8n loads it).
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
const oursAt = args.indexOf('--ours');
const ours = oursAt >= 0 && args.splice(oursAt, 1).length > 0;
const [file, ...patterns] = args;
if (!file) throw new Error('usage: profile.mjs <file.cpuprofile> [--top N] [name@urlPart ...]');

const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const short = (url) => url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\//, '');
const label = (node) => `${node.callFrame.functionName || '(anonymous)'} ${short(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
const matches = (node, pattern) => {
	const [name, url] = pattern.split('@');
	return (!name || node.callFrame.functionName === name) && (!url || node.callFrame.url.includes(url));
};

const isOurs = (node) => /\/(nodes|credentials)\/|n8n-nodes-conversation-inbox/.test(node.callFrame.url) && !node.callFrame.url.includes('/node_modules/n8n-');
const oursSelf = new Map();
const oursTotal = new Map();
const self = new Map();
const inclusive = new Map(patterns.map((p) => [p, 0]));
let total = 0;
let idle = 0;
profile.samples.forEach((id, i) => {
	const dt = (profile.timeDeltas[i] ?? 0) / 1000;
	total += dt;
	const node = byId.get(id);
	if (node.callFrame.functionName === '(idle)') idle += dt;
	else self.set(label(node), (self.get(label(node)) ?? 0) + dt);
	const stack = [];
	for (let at = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at));
	if (ours && !stack.some((frame) => frame.callFrame.url.startsWith('node:internal/modules/'))) {
		if (isOurs(node)) oursSelf.set(label(node), (oursSelf.get(label(node)) ?? 0) + dt);
		for (const name of new Set(stack.filter(isOurs).map(label))) oursTotal.set(name, (oursTotal.get(name) ?? 0) + dt);
	}
	for (const p of patterns) {
		if (p.split('+').every((part) => stack.some((frame) => matches(frame, part)))) inclusive.set(p, inclusive.get(p) + dt);
	}
});

console.log(`profile: ${total.toFixed(0)} ms sampled (${profile.samples.length} samples), idle ${idle.toFixed(0)} ms`);
for (const [p, ms] of inclusive) console.log(`  ${p}: ${ms.toFixed(1)} ms including callees`);
console.log(`top ${top} by self time:`);
for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(9)} ms  ${name}`);
if (ours) {
	const sum = [...oursSelf.values()].reduce((a, b) => a + b, 0);
	console.log(`ours: ${sum.toFixed(0)} ms self in all; top ${top} by self time:`);
	for (const [name, ms] of [...oursSelf].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(9)} ms  ${name}`);
	console.log(`ours: top ${top} including callees:`);
	for (const [name, ms] of [...oursTotal].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(9)} ms  ${name}`);
}
