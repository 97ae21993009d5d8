/** The reference pages in docs/ are generated from the code; this fails when someone forgets `npm run docs`. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
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
    const run = spawnSync(
      process.execPath,
      [path.join(root, 'bin/crm.mjs'), 'docs', '--out', out, '--commands', commands],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: '', CRM_CONFIG: '' },
      },
    );
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
  });
});
