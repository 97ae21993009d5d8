/** The mailer's file driver: one JSON file per message, in the configured folder. */
import { expect } from 'chai';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bootTestKernel, type TestKernel } from '../../../host/testing';
import type { Mailer } from '../../../plugins/mailer';

describe('mailer: the file driver', function () {
  this.timeout(30000);
  let kernel: TestKernel;
  let directory: string;

  before(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'crm-mail-'));
    kernel = await bootTestKernel({
      plugins: ['mailer'],
      config: { pluginConfig: { mailer: { driver: 'file', directory, fromEmail: 'news@example.org' } } },
    });
  });
  after(() => kernel?.close());

  it('writes each message as a file and answers its message id; the default sender comes from the config', async () => {
    const mailer = kernel.kernel.container.resolve('mailer') as Mailer;
    expect(mailer.from.email).to.equal('news@example.org');
    const sent = await mailer.send({ from: mailer.from.email, to: 'ann@example.org', subject: 'Hi', text: 'Hello' });
    expect(sent.accepted).to.equal(true);
    const files = await readdir(directory);
    expect(files).to.have.length(1);
    const stored = JSON.parse(await readFile(path.join(directory, files[0]), 'utf8')) as Record<string, unknown>;
    expect(stored).to.include({ to: 'ann@example.org', subject: 'Hi', text: 'Hello', messageId: sent.messageId });
  });
});
