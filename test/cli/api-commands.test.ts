/** `crm api3` / `crm api4`: any action from the command line, as the deployer. */
import { expect } from 'chai';
import { type KernelError } from '../../kernel';
import { cliCommands, cliContext, type CliCommand } from '../../host';
import { bootTestKernel, type TestKernel } from '../../host/testing';

describe('crm api3 / crm api4', function () {
  this.timeout(60000);
  let testKernel: TestKernel;
  let run: (name: string, args: string[]) => Promise<unknown>;
  before(async () => {
    testKernel = await bootTestKernel({
      plugins: ['api3', 'api4', 'entity-contact', 'oauth-client'],
      config: { pluginConfig: { users: { firstRun: false } } },
    });
    const cmds = new Map(((await testKernel.kernel.hooks.run(cliCommands)) as CliCommand[]).map((c) => [c.name, c]));
    run = async (name, args) => JSON.parse(String(await cmds.get(name)!.run(args, {}, cliContext(testKernel.kernel))));
  });
  after(() => testKernel.close());

  it('creates with APIv4 and reads back with APIv3', async () => {
    const created = (await run('api4', [
      'Contact',
      'create',
      '{"values":{"contact_type":"Individual","first_name":"Cli","last_name":"User"}}',
    ])) as { values: Array<{ id: number }> };
    const id = created.values[0].id;
    expect(await run('api3', ['Contact', 'getvalue', JSON.stringify({ id, return: 'display_name' })])).to.equal(
      'Cli User',
    );
  });

  it('registers an OAuth client and lists it, secret included (the deployer sees everything)', async () => {
    await run('api4', [
      'OAuthClient',
      'create',
      '{"values":{"provider":"gmail","guid":"cli-guid","secret":"cli-secret-value"}}',
    ]);
    const got = (await run('api4', ['OAuthClient', 'get', '{"select":["provider","guid","secret"]}'])) as {
      values: Array<Record<string, string>>;
    };
    expect(got.values).to.deep.include({ provider: 'gmail', guid: 'cli-guid', secret: 'cli-secret-value' });
  });

  it('refuses params that are not a JSON object, with a clear error', async () => {
    for (const bad of ['{nope', '[1,2]']) {
      let err: KernelError | undefined;
      try {
        await run('api4', ['Contact', 'get', bad]);
      } catch (e) {
        err = e as KernelError;
      }
      expect(err?.code, bad).to.equal('E_INVALID_PARAMS');
    }
  });
});
