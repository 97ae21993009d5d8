/**
 * Flushing the provider list reaches every instance on one PostgreSQL database: `crm flush` (or
 * System.flush) announced by one process makes the others rebuild their list at once.
 * PostgreSQL only (the embedded database is single-process): skipped without DATABASE_URL.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { type Kernel } from '../../../kernel';
import { cliCommands, cliContext, createKernel, type CliCommand } from '../../../host';
import { createLogger } from '../../../host';
import { bootTestKernel, type TestKernel } from '../../../host/testing';
import type { ProviderRegistry } from '../../../plugins/oauth-client/providers';

describe('oauth-client: provider flush across instances', function () {
  let instanceA: TestKernel;
  let instanceB: Kernel;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-flush-'));
  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    instanceA = await bootTestKernel({
      plugins: ['oauth-client'],
      config: { dataDir, pluginConfig: { users: { firstRun: false } } },
      logLevel: 'warn',
    });
    instanceB = await createKernel({ config: instanceA.config, log: createLogger({ level: 'silent' }) });
  });
  after(async () => {
    await instanceB?.close();
    await instanceA?.close();
  });

  it('a provider added to the private folder appears on instance A once instance B runs crm flush', async () => {
    const names = async () =>
      (await instanceA.kernel.container.resolve<ProviderRegistry>('oauthProviders').list()).map((p) => p.name);
    expect(await names()).to.not.include('late-provider');
    mkdirSync(path.join(dataDir, 'oauth-providers'), { recursive: true });
    writeFileSync(
      path.join(dataDir, 'oauth-providers', 'late-provider.json'),
      JSON.stringify({
        title: 'Late',
        options: {
          urlAuthorize: 'https://auth.example.org/authorize',
          urlAccessToken: 'https://auth.example.org/token',
          urlResourceOwnerDetails: null,
          scopes: ['x'],
        },
      }),
    );
    expect(await names(), 'cached until flushed').to.not.include('late-provider');
    const flush = ((await instanceB.hooks.run(cliCommands)) as CliCommand[]).find((c) => c.name === 'flush')!;
    await flush.run([], {}, cliContext(instanceB));
    let seen: string[] = [];
    for (let i = 0; i < 40 && !seen.includes('late-provider'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await names();
    }
    expect(seen).to.include('late-provider');
  });
});
