/**
 * The kernel/host split and the plugin boundary rule, pinned: no kernel file loads the HTTP framework,
 * the logger, a database driver or host code at runtime, and the lint rule refuses a plugin importing
 * another plugin's internal file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ESLint } from 'eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Module specifiers a file loads at runtime (type-only imports and `import type` are left out). */
function runtimeImports(text: string): string[] {
  const found: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'([^']+)'/gm;
  for (const match of text.matchAll(statement)) {
    if (match[2]) continue;
    const clause = match[3].trim();
    // `import { type A, type B } from 'x'` is erased as well.
    const names = /^\{([^}]*)\}$/.exec(clause);
    if (names && names[1].split(',').every((name) => !name.trim() || name.trim().startsWith('type '))) continue;
    found.push(match[4]);
  }
  for (const match of text.matchAll(/^\s*import\s+'([^']+)'/gm)) found.push(match[1]);
  for (const match of text.matchAll(/import\(\s*'([^']+)'\s*\)/g)) found.push(match[1]);
  // `createRequire` loads (kernel/schema.ts requires ajv on first need).
  for (const match of text.matchAll(/\brequire\(\s*'([^']+)'\s*\)/g)) found.push(match[1]);
  return found;
}

describe('kernel boundaries', () => {
  const kernelFiles = sourceFiles(path.join(root, 'kernel'));

  it('no kernel file imports koa, pino, pg, knex, PGlite or host code at runtime', () => {
    const forbidden = /^(koa|koa-body|@koa\/router|pino|pino-pretty|pg|knex|knex-pglite|@electric-sql\/pglite)$/;
    const offenders: string[] = [];
    for (const file of kernelFiles) {
      const text = readFileSync(file, 'utf8');
      for (const spec of runtimeImports(text)) {
        const intoHost =
          spec.startsWith('.') && path.resolve(path.dirname(file), spec).startsWith(path.join(root, 'host'));
        if (forbidden.test(spec) || intoHost) offenders.push(`${path.relative(root, file)} → ${spec}`);
      }
      // Not even a type may come from koa or pino: swapping them must touch no kernel file.
      for (const match of text.matchAll(/from\s+'(koa|pino|@koa\/router)'/g))
        offenders.push(`${path.relative(root, file)} → type from ${match[1]}`);
    }
    expect(offenders).to.deep.equal([]);
  });

  it('the kernel loads at most four third-party packages at runtime', () => {
    const packages = new Set<string>();
    for (const file of kernelFiles)
      for (const spec of runtimeImports(readFileSync(file, 'utf8')))
        // A package's own files (`semver/functions/satisfies.js`) count as the package.
        if (!spec.startsWith('.') && !spec.startsWith('node:'))
          packages.add(
            spec
              .split('/')
              .slice(0, spec.startsWith('@') ? 2 : 1)
              .join('/'),
          );
    expect([...packages].sort()).to.deep.equal(['ajv', 'ajv-formats', 'awilix', 'semver']);
  });

  it('sees through type-only imports (the check itself can fail)', () => {
    expect(runtimeImports("import type { Knex } from 'knex';\nimport { type A } from 'koa';")).to.deep.equal([]);
    expect(runtimeImports("import { asValue } from 'awilix';\nimport pino from 'pino';")).to.deep.equal([
      'awilix',
      'pino',
    ]);
  });
});

describe('plugin boundary lint rule', () => {
  const eslint = new ESLint({ cwd: root });
  const lint = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return result.messages.filter((m) => m.ruleId === 'crm/plugin-boundaries').map((m) => m.message);
  };

  it("refuses a plugin importing another plugin's internal file", async () => {
    const messages = await lint('plugins/auth-session/example.ts', "export { IdentityStore } from '../users/store';\n");
    expect(messages).to.have.length(1);
    expect(messages[0]).to.contain("import 'users' through its index.ts ('../users')");
  });

  it('refuses a dynamic import of an internal file too', async () => {
    expect(
      await lint('plugins/system/example.ts', "export const load = () => import('../users/jwt');\n"),
    ).to.have.length(1);
  });

  it("accepts the other plugin's index, the plugin's own files, and a test of the plugin it tests", async () => {
    expect(await lint('plugins/auth-session/example.ts', "export { IdentityStore } from '../users';\n")).to.deep.equal(
      [],
    );
    expect(await lint('plugins/users/example.ts', "export { IdentityStore } from './store';\n")).to.deep.equal([]);
    expect(
      await lint(
        'test/plugins/users/example.test.ts',
        "export { IdentityStore } from '../../../plugins/users/store';\n",
      ),
    ).to.deep.equal([]);
    expect(
      await lint(
        'test/plugins/api3/example.test.ts',
        "export { IdentityStore } from '../../../plugins/users/store';\n",
      ),
    ).to.have.length(1);
  });
});
