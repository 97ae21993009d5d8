// Which code `crm` runs: the compiled JavaScript in dist/ (bin/build.mjs) when it is up to date, else the
// TypeScript sources through tsx. Up to date means built after every file under the source folders (and
// package.json, package-lock.json) last changed, from as many files; otherwise one line on stderr says tsx
// runs instead.
// CRM_RUNTIME=tsx always runs the sources; CRM_RUNTIME=dist refuses to fall back. CRM_DIST names another
// compiled tree (tests build one of their own).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The folders compiled (their .ts files) or copied (everything else) into the compiled tree. */
export const SOURCE_DIRS = ['kernel', 'host', 'cli', 'plugins', 'providers'];

/** The build's record in the compiled tree: `{ builtAt, files, esbuild, node }`. */
export const STAMP = 'build.json';

/** Commands that write into the source tree (migrations, references): always run from the sources. */
const SOURCE_COMMANDS = new Set(['migrate:make', 'docs']);

export const distDir = () => path.resolve(root, process.env.CRM_DIST || 'dist');

/** Every file under the source folders, relative to the project root. */
export function listSources() {
  const files = [];
  const walk = (rel) => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(path.join(root, dir))) walk(dir);
  return files.sort();
}

const REBUILD = ' (`npm run build` compiles them again)';

/** Why the compiled tree in `out` cannot run (missing, or older than a source), or undefined when it can. */
export function staleness(out = distDir()) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(out, STAMP), 'utf8'));
  } catch {
    return { missing: true, reason: `${path.relative(root, out) || out}/ is not built` };
  }
  const where = `${path.relative(root, out) || out}/`;
  const stale = (reason) => ({ missing: false, reason: `${where} ${reason}`, hint: REBUILD });
  const sources = listSources();
  // package-lock.json too: the build bundles some packages (knex) into dist/vendor/.
  const manifests = ['package.json', 'package-lock.json'].filter((f) => existsSync(path.join(root, f)));
  for (const file of [...sources, ...manifests])
    if (statSync(path.join(root, file)).mtimeMs > stamp.builtAt) return stale(`is older than ${file}`);
  if (sources.length !== stamp.files) return stale(`was built from ${stamp.files} files, the sources have ${sources.length}`);
  return undefined;
}

/** The first command word of `crm` arguments (global `-c <file>` skipped). */
function commandOf(argv) {
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '-c' || argv[i] === '--config') i++;
    else if (!argv[i].startsWith('-')) return argv[i];
  }
  return undefined;
}

/**
 * The compiled CLI's URL when it should run, or undefined for the sources through tsx. `external` says
 * whether the configuration names plugin folders outside plugins/ (TypeScript the compiled tree lacks).
 */
export function compiledEntry(argv, external) {
  const mode = process.env.CRM_RUNTIME || 'auto';
  if (mode === 'tsx' || SOURCE_COMMANDS.has(commandOf(argv))) return undefined;
  const out = distDir();
  let why = staleness(out);
  if (!why && external())
    why = { missing: false, reason: 'the configuration names plugin folders outside plugins/ (pluginPaths)', hint: '' };
  if (why && mode === 'dist') {
    process.stderr.write(`crm: CRM_RUNTIME=dist but ${why.reason}\n`);
    process.exit(1);
  }
  if (!why) return pathToFileURL(path.join(out, 'cli', 'main.js')).href;
  // A stale build is never run silently; no build at all (e.g. `npm ci --ignore-scripts`) is the plain case.
  if (!why.missing) process.stderr.write(`crm: ${why.reason}: running the TypeScript sources through tsx${why.hint}\n`);
  return undefined;
}
