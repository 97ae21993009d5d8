#!/usr/bin/env node
// `--help`, `--version` and argument errors are answered by the plain-JavaScript front (cli/front.mjs);
// real commands run the compiled JavaScript in dist/ (bin/build.mjs, built by `npm ci`) when it is up to
// date, else the TypeScript sources through tsx (bin/dist.mjs; docs/adr/0001-typescript-runtime.md).
import v8 from 'node:v8';
import { externalPlugins, front } from '../cli/front.mjs';
import { compiledEntry } from './dist.mjs';
import { relaunchWithYoungGeneration, wantsYoungGeneration } from './young-generation.mjs';

const command = front(process.argv);
// `crm import` on PostgreSQL runs again as a child with a larger young generation (young-generation.mjs).
if (command === 'import' && wantsYoungGeneration()) relaunchWithYoungGeneration();
else if (command) {
  // Keep the heap near what is live: by default V8 lets the old generation grow up to 4x between full
  // collections, ~100 MB of garbage under load. 1.5x costs a few percent of throughput and keeps a
  // loaded server's peak RSS ~90 MB lower (docs/performance.md, Memory). A flag given to node wins.
  // `serve` sets it once listening: while the heap grows from nothing at start-up, 1.5x meant 5 full
  // collections instead of 2 (~0.1-0.2 s of a start; docs/performance.md, Start-up time).
  const heapGoal = () => {
    if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent')))
      v8.setFlagsFromString('--heap-growing-percent=50');
  };
  if (command !== 'serve') heapGoal();
  // An import runs for minutes: the embedded engine's WebAssembly compiled once by the optimising compiler
  // (~2.5 s more at start) instead of first by the baseline one and then again when hot, which kept both codes:
  // a 100,000-row import on PGlite peaks ~40 MB lower and runs ~5% faster (docs/performance.md). Not for other
  // commands, whose start would double. No WebAssembly runs on PostgreSQL.
  if (command === 'import') v8.setFlagsFromString('--no-liftoff');

  const compiled = compiledEntry(process.argv, () => externalPlugins(process.argv));
  if (compiled) await import(compiled);
  else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../cli/main.ts');
  }
  // The import settles when the command's action has (for `serve`: listening).
  if (command === 'serve') heapGoal();
}
