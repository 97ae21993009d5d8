/** The reference pages in docs/ are generated from the code; this fails when someone forgets `npm run docs`. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('generated docs', function () {
  this.timeout(90000);
  it('docs/{hooks,actions,errors,manifest,entities}.md, config.schema.json, openapi.json, cli/commands.json match the code', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'crm-docs-'));
    const commands = path.join(out, 'commands.json');
    const docs = () =>
      spawnSync(process.execPath, [path.join(root, 'bin/crm.mjs'), 'docs', '--out', out, '--commands', commands], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: '', CRM_CONFIG: '' },
      });
    const run = docs();
    expect(run.status, run.stderr).to.equal(0);
    for (const file of [
      'hooks.md',
      'actions.md',
      'errors.md',
      'manifest.md',
      'entities.md',
      'config.schema.json',
      'openapi.json',
    ]) {
      expect(readFileSync(path.join(out, file), 'utf8'), `docs/${file} is stale: run npm run docs`).to.equal(
        readFileSync(path.join(root, 'docs', file), 'utf8'),
      );
    }
    // What the CLI front answers --help and argument errors from.
    expect(readFileSync(commands, 'utf8'), 'cli/commands.json is stale: run npm run docs').to.equal(
      readFileSync(path.join(root, 'cli/commands.json'), 'utf8'),
    );
    // Again: nothing changed, so nothing is written (an untouched cli/commands.json keeps dist/ current).
    const before = statSync(commands).mtimeMs;
    const again = docs();
    expect(again.status, again.stderr).to.equal(0);
    expect(again.stdout).to.include('every generated file is up to date').and.not.include('wrote');
    expect(statSync(commands).mtimeMs).to.equal(before);
  });

  it("docs/deploying.md's plugin table lists every installed plugin with its default and description", () => {
    const page = readFileSync(path.join(root, 'docs/deploying.md'), 'utf8');
    const rows = page.split('\n').filter((l) => /^\| `[a-z0-9-]+` \| (on|off) \|/.test(l));
    const expected = readdirSync(path.join(root, 'plugins'))
      .filter((d) => existsSync(path.join(root, 'plugins', d, 'manifest.json')))
      .sort()
      .map((d) => {
        const m = JSON.parse(readFileSync(path.join(root, 'plugins', d, 'manifest.json'), 'utf8'));
        return `| \`${m.name}\` | ${m.enabledByDefault ? 'on' : 'off'} | ${m.description} |`;
      });
    expect(rows).to.deep.equal(expected);
  });
});
