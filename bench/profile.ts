/**
 * Summarises a V8 CPU profile (`npm run bench -- --profile` writes them to var/bench/profiles/):
 * self time by package or project folder, and the hottest functions.
 *   node --import tsx/esm bench/profile.ts var/bench/profiles/<file>.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: bench/profile.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };

const hits = new Map<number, number>();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
const total = profile.samples.length;

/** Where a frame's code lives: an npm package, a project folder, node's own modules, or V8. */
function area(url: string, name: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(kernel|plugins\/[^/]+|bench|cli)\//.exec(url);
  if (own) return own[1];
  if (url.startsWith('node:')) return url;
  return url ? 'other' : `(${name || 'program'})`;
}

const byArea = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const n of profile.nodes) {
  const h = hits.get(n.id) ?? 0;
  if (!h) continue;
  const a = area(n.callFrame.url, n.callFrame.functionName);
  byArea.set(a, (byArea.get(a) ?? 0) + h);
  const fn = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|plugins|kernel)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + h);
}
// Inclusive time: a function's own samples plus everything it called (counted once per stack).
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const inclusive = new Map<string, number>();
const walk = (n: Node, open: Set<string>): number => {
  let h = hits.get(n.id) ?? 0;
  const name = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|plugins|kernel)\//, '$1/')}`;
  const fresh = !open.has(name);
  if (fresh) open.add(name);
  for (const c of n.children ?? []) h += walk(byId.get(c)!, open);
  if (fresh) {
    open.delete(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + h);
  }
  return h;
};
walk(profile.nodes[0], new Set());
const pct = (h: number) => `${((h / total) * 100).toFixed(1).padStart(5)}%`;
const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
console.log(`${total} samples\n\nSelf time by area:`);
for (const [a, h] of top(byArea, 30)) console.log(`${pct(h)}  ${a}`);
console.log('\nHottest functions (self time):');
for (const [f, h] of top(byFunction, Number(topArg ?? 40))) console.log(`${pct(h)}  ${f}`);
console.log('\nHeaviest functions (inclusive, project code):');
for (const [f, h] of top(new Map([...inclusive].filter(([f]) => /(plugins|kernel)\//.test(f))), Number(topArg ?? 40)))
  console.log(`${pct(h)}  ${f}`);
