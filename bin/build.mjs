#!/usr/bin/env node
// Compiles the TypeScript sources to plain JavaScript in dist/, so `npm start` runs without tsx compiling
// at run time (docs/performance.md, "Start-up time"). npm's `prepare` lifecycle runs it after `npm ci`;
// bin/crm.mjs runs dist/ when it is up to date and the sources through tsx otherwise (bin/dist.mjs).
//   node bin/build.mjs [--out <dir>]      (default dist/, or $CRM_DIST)
//
// One output file per source file (esbuild, no bundling of our own modules), so the plugin loader finds
// `plugins/<name>/register.js`, `entities/<Entity>.js` and `migrations/<nnn>_<name>.js` where it looks for
// them. Relative imports are rewritten to the files Node loads (`../kernel` -> `../kernel/index.js`), JSON
// imports are inlined, packages stay imports. Every other file under the source folders (manifests, JSON
// schemas, assets, cli/commands.json, providers/*.json) is copied beside the compiled code, so paths taken
// from `import.meta.url` find them. `<out>/package.json` marks the tree as ES modules, carries the
// version, and says where the sources are; `<out>/build.json` records when it was built (the staleness check).
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distDir, listSources, root, STAMP } from './dist.mjs';
import { generateValidators } from './validators.mjs';

const isFile = (file) => existsSync(file) && statSync(file).isFile();
const posix = (file) => file.split(path.sep).join('/');

/**
 * Packages bundled into `vendor/` instead of loaded file by file: knex requires ~290 files (lodash one
 * function at a time), ~0.1 s of every start on the 2-core machine. knex-pglite extends knex's PostgreSQL
 * client, so both come from one bundle (one knex). Their drivers and optional dialects stay packages.
 */
const VENDORED = ['knex', 'knex-pglite'];
/**
 * Packages bundled for their named exports, without a dependency the service never calls: awilix requires
 * fast-glob (~25 files, ~0.05-0.1 s of every start) for `loadModules` only, which nothing here uses.
 */
const VENDORED_NAMED = ['awilix'];
const VENDOR_STUBS = ['fast-glob'];
const VENDOR_EXTERNAL = ['pg', 'pg-native', 'pg-query-stream', '@electric-sql/*', 'better-sqlite3', 'sqlite3'];
VENDOR_EXTERNAL.push('tedious', 'mysql', 'mysql2', 'mariadb', 'oracledb');

/** esbuild plugin: every import stays an import (packages as written, our modules as their .js files). */
const perFile = {
  name: 'crm-per-file',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (VENDORED.includes(args.path) || VENDORED_NAMED.includes(args.path)) {
        const from = path.dirname(path.relative(root, args.importer));
        return { path: posix(path.relative(from, `vendor/${args.path}.js`)), external: true };
      }
      if (!args.path.startsWith('.')) return { path: args.path, external: true };
      if (args.path.endsWith('.json')) return undefined; // inlined: Node needs `with { type: 'json' }`
      const target = path.resolve(args.resolveDir, args.path);
      const file = [`${target}.ts`, path.join(target, 'index.ts'), target].find(isFile);
      if (!file) return { errors: [{ text: `Cannot resolve ${args.path} from ${args.importer}` }] };
      let rel = posix(path.relative(args.resolveDir, file)).replace(/\.ts$/, '.js');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return { path: rel, external: true };
    });
  },
};

/**
 * esbuild plugin: `crm-vendor:<package>` is a module re-exporting that package's default export, or (for
 * VENDORED_NAMED) its named exports; a VENDOR_STUBS package is a module that throws when called.
 */
const vendorEntries = {
  name: 'crm-vendor',
  setup(build) {
    build.onResolve({ filter: /^crm-vendor:/ }, (args) => ({
      path: args.path.slice('crm-vendor:'.length),
      namespace: 'crm-vendor',
    }));
    build.onLoad({ filter: /.*/, namespace: 'crm-vendor' }, (args) => {
      if (!VENDORED_NAMED.includes(args.path))
        return { contents: `export { default } from '${args.path}';`, resolveDir: root };
      const names = Object.keys(createRequire(path.join(root, 'package.json'))(args.path));
      const named = names.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
      return {
        contents: `import * as m from '${args.path}';\nexport const { ${named.join(', ')} } = m;`,
        resolveDir: root,
      };
    });
    build.onResolve({ filter: new RegExp(`^(${VENDOR_STUBS.join('|')})$`) }, (args) => ({
      path: args.path,
      namespace: 'crm-stub',
    }));
    build.onLoad({ filter: /.*/, namespace: 'crm-stub' }, (args) => ({
      contents: `const fail = () => { throw new Error('${args.path} is not part of the compiled tree (bin/build.mjs)'); };
module.exports = Object.assign(fail, { sync: fail, stream: fail, glob: fail });`,
      resolveDir: root,
    }));
  },
};

/** Builds the compiled tree into `out` (through a temporary folder, swapped in at the end). */
export async function build(out = distDir()) {
  const started = Date.now();
  const { build: esbuild, version } = await import('esbuild');
  const sources = listSources();
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const entryPoints = sources.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await esbuild({
    entryPoints: entryPoints.map((f) => path.join(root, f)),
    outdir: tmp,
    outbase: root,
    bundle: true,
    plugins: [perFile],
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // No keepNames: each file is its own module, so esbuild renames nothing, and keepNames would wrap every
    // function made at run time (closures on the request path) in a property definition.
    logLevel: 'error',
  });
  await esbuild({
    entryPoints: [...VENDORED, ...VENDORED_NAMED].map((name) => ({ in: `crm-vendor:${name}`, out: name })),
    outdir: path.join(tmp, 'vendor'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: VENDOR_EXTERNAL,
    // The bundled CommonJS requires the packages left out (pg) and Node's own modules.
    banner: {
      js: "import { createRequire as __crmRequire } from 'node:module'; const require = __crmRequire(import.meta.url);",
    },
    plugins: [vendorEntries],
    logLevel: 'error',
  });
  for (const file of sources.filter((f) => !f.endsWith('.ts')))
    cpSync(path.join(root, file), path.join(tmp, file), { preserveTimestamps: true });
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const sourceRoot = posix(path.relative(out, root)) || '.';
  const marker = { name: pkg.name, version: pkg.version, private: true, type: 'module', crmSourceRoot: sourceRoot };
  writeFileSync(path.join(tmp, 'package.json'), JSON.stringify(marker, null, 2) + '\n');
  const validators = await generateValidators(tmp);
  const stamp = { builtAt: started, files: sources.length, esbuild: version, node: process.version };
  writeFileSync(path.join(tmp, STAMP), JSON.stringify(stamp, null, 2) + '\n');
  const old = `${out}.old-${process.pid}`;
  mkdirSync(path.dirname(out), { recursive: true });
  if (existsSync(out)) renameSync(out, old);
  renameSync(tmp, out);
  rmSync(old, { recursive: true, force: true });
  return {
    out,
    files: entryPoints.length,
    copied: sources.length - entryPoints.length,
    validators,
    ms: Date.now() - started,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const out = i >= 0 ? path.resolve(process.argv[i + 1]) : distDir();
  try {
    const done = await build(out);
    const where = path.relative(root, done.out) || done.out;
    const what = `${done.files} TypeScript files to ${where}/ (${done.copied} copied, ${done.validators} validators generated)`;
    console.log(`Compiled ${what} in ${done.ms} ms`);
  } catch (err) {
    // Never fail an install over it: without dist/ bin/crm.mjs runs the sources through tsx, as before.
    console.warn(`Compiled JavaScript not built (crm runs the TypeScript sources through tsx): ${err?.message ?? err}`);
  }
}
