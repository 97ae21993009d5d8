/**
 * audit-log: the reference's detailed logging. The `logging` setting turns log tables and triggers on and
 * off; writing actions tell the triggers who acts; custom-data table changes and start-up keep log tables in
 * step; System.updatelogtables, Logging.get, LogEntry (APIv4) and `crm log` expose it.
 */
import type { Knex } from 'knex';
import { apiWrite, definePlugin, type Api } from '../../kernel';
import { cliCommands } from '../../host';
import type { ChangeBus, EntityRegistry } from '../entity-core';
import { settingsCatalogue, settingsChanged } from '../settings';
import { customDataTableChanged } from '../custom-data';
import { AuditState, SETTING, TOPIC } from './state';
import { syncLogTables } from './schema';
import { defineAuditActions } from './actions';
import { logCliCommand } from './cli';

export default definePlugin(({ services, hooks, actions, onReady, log }) => {
  const registry = services.resolve<EntityRegistry>('entities');
  const bus = () => services.resolve<ChangeBus>('changeBus');
  const pool = () => services.resolve<Knex>('db');
  const state = new AuditState(registry, () => services.resolve<Api>('api'), pool, bus, log);

  hooks.tap(settingsCatalogue, () => [
    {
      name: SETTING,
      type: 'Boolean',
      default: false,
      title: 'Logging',
      description: 'Detailed logging: every change to a record is kept in its log table (who, when, the values)',
      group: 'core',
    },
  ]);
  hooks.tap(settingsChanged, async (db, names) => {
    if (names.includes(SETTING)) await state.apply(db);
  });
  hooks.tap(apiWrite, (request, db) => state.identify(request.principal, db));
  hooks.tap(customDataTableChanged, async (db, table) => {
    if (state.enabled) await syncLogTables(db, registry, { tables: [table] });
  });
  hooks.tap(cliCommands, () => [logCliCommand(registry)]);
  defineAuditActions(actions, registry, state);

  onReady(async () => {
    bus().on(TOPIC, () => void state.reload());
    await pool().transaction((trx) => state.start(trx));
  });
});
