/**
 * Two instances on one PostgreSQL database: an option written through one is usable through the
 * other at once (the option caches are invalidated by pg_notify on commit), and a rolled-back write
 * leaves nothing behind. PostgreSQL only: skipped without DATABASE_URL.
 */
import { expect } from 'chai';
import { createRequestScope, type Kernel } from '../../../kernel';
import { createKernel } from '../../../host';
import { createLogger } from '../../../host';
import type { Api3Service } from '../../../plugins/api3';
import { ADMIN, bootEngine, type Engine } from '../api3/helpers';

describe('entity-core: option caches across instances', function () {
  let first: Engine;
  let second: Kernel;
  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    first = await bootEngine();
    second = await createKernel({ config: first.t.config, log: createLogger({ level: 'silent' }) });
  });
  after(async () => {
    await second?.close();
    await first?.t.close();
  });

  const callB = async (entity: string, action: string, params: Record<string, unknown>) => {
    const scope = createRequestScope(second.container, 'b', ADMIN);
    try {
      return await scope.resolve<Api3Service>('api3').call({ entity, action, params, principal: ADMIN, scope });
    } finally {
      await scope.dispose();
    }
  };
  const prefixesOnB = async () =>
    Object.values(
      ((await callB('Contact', 'getoptions', { field: 'prefix_id' })) as { values: Record<string, string> }).values,
    );

  it('sees an option another instance added, without a restart', async () => {
    expect(await prefixesOnB()).to.not.include('Capt.');
    await first.call('OptionValue', 'create', { option_group_id: 'individual_prefix', label: 'Capt.', name: 'Capt.' });
    let seen: string[] = [];
    for (let i = 0; i < 40 && !seen.includes('Capt.'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await prefixesOnB();
    }
    expect(seen).to.include('Capt.');
    const created = (await callB('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Jean-Luc',
      last_name: 'Picard',
      prefix_id: 'Capt.',
    })) as { id: number };
    const got = (await callB('Contact', 'getsingle', { id: created.id, return: ['display_name'] })) as {
      display_name: string;
    };
    expect(got.display_name).to.equal('Capt. Jean-Luc Picard');
  });

  it('a rolled-back option write is never announced', async () => {
    await first.call('OptionValue', 'create', {
      option_group_id: 'individual_prefix',
      label: 'Adm.',
      name: 'Adm.',
      options: { force_rollback: 1 },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(await prefixesOnB()).to.not.include('Adm.');
  });
});
