/**
 * `crm log <Entity> <id> [--json]`: in-process through the cli.commands hook (PGlite and PostgreSQL), and as a
 * deployer runs it, a real `crm` process on an embedded data folder.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliCommands, cliContext, type CliCommand } from '../../../host';
import { bootTestKernel, principalWith, type TestKernel } from '../../../host/testing';
import { runCrm } from '../../support/cli';

describe('audit-log: crm log', function () {
  this.timeout(180000);
  let testKernel: TestKernel;
  let annId: number;

  before(async () => {
    testKernel = await bootTestKernel({ plugins: ['audit-log'], logLevel: 'warn' });
    const admin = principalWith(['*'], null);
    await testKernel.kernel.call({
      version: 4,
      entity: 'Setting',
      action: 'set',
      params: { values: { logging: true } },
      principal: admin,
    });
    const made = (await testKernel.kernel.call({
      version: 3,
      entity: 'Contact',
      action: 'create',
      params: { contact_type: 'Individual', first_name: 'Ann' },
      principal: principalWith(['*'], 1),
    })) as { id: number };
    annId = Number(made.id);
    await testKernel.kernel.call({
      version: 3,
      entity: 'Contact',
      action: 'create',
      params: { id: annId, first_name: 'Anne' },
      principal: principalWith(['*'], 1),
    });
  });
  after(() => testKernel?.close());

  const command = async () =>
    ((await testKernel.kernel.hooks.run(cliCommands)) as CliCommand[]).find((candidate) => candidate.name === 'log')!;

  it('prints the history as text, and as LogEntry rows with --json', async () => {
    const log = await command();
    const text = String(await log.run(['Contact', String(annId)], {}, cliContext(testKernel.kernel)));
    expect(text).to.match(/Insert {2}Contact \d+ {2}by contact 1/);
    expect(text).to.contain('first_name: Ann → Anne');
    const entries = JSON.parse(
      String(await log.run(['Contact', String(annId)], { json: true }, cliContext(testKernel.kernel))),
    );
    expect(entries.map((entry: { action: string }) => entry.action)).to.deep.equal(['Insert', 'Update']);
    expect(entries[1].changes.first_name).to.deep.equal({ before: 'Ann', after: 'Anne' });
  });

  it('refuses an unknown entity or a bad id', async () => {
    const log = await command();
    const failed = async (args: string[]) => {
      try {
        await log.run(args, {}, cliContext(testKernel.kernel));
      } catch (err) {
        return String(err);
      }
      return '';
    };
    expect(await failed(['NoSuchThing', '1'])).to.contain('Unknown entity: NoSuchThing');
    expect(await failed(['Contact', 'x'])).to.contain('id must be a number');
  });

  it('a real crm process: turn logging on, write, read the history', function () {
    if (process.env.DATABASE_URL) this.skip(); // the process runs on its own embedded data folder
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-audit-'));
    const env = { CRM_DATA_DIR: dataDir, CRM_ENABLE: 'audit-log', LOG_LEVEL: 'warn' };
    try {
      const on = runCrm(['api4', 'Setting', 'set', '{"values":{"logging":true}}'], env);
      expect(on.status, on.stderr).to.equal(0);
      const made = runCrm(
        ['api4', 'Contact', 'create', '{"values":{"contact_type":"Individual","first_name":"Bo"}}'],
        env,
      );
      expect(made.status, made.stderr).to.equal(0);
      const answer = JSON.parse(made.stdout);
      const id = Number((answer.values ?? answer)[0].id);
      const shown = runCrm(['log', 'Contact', String(id), '--json'], env);
      expect(shown.status, shown.stderr).to.equal(0);
      const entries = JSON.parse(shown.stdout);
      expect(entries[0]).to.include({ action: 'Insert', entity: 'Contact', entity_id: id });
      expect(entries[0].changes.first_name).to.deep.equal({ before: null, after: 'Bo' });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
