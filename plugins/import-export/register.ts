/**
 * import-export: `crm import` and `Import.run` (CSV of contacts in batches, resumable), `crm export`
 * (keyset pages through APIv4 `get`, CSV or JSON, formula cells neutralised) and the ImportJob entity.
 */
import type { Knex } from 'knex';
import { definePlugin } from '../../kernel';
import { cliCommands } from '../../host';
import type { EntityRegistry, EntityService } from '../entity-core';
import { importExportCommands } from './cli';
import { defineImportAction } from './action';

export interface ImportExportOptions {
  batchSize: number;
  batchesInFlight: 1 | 2;
  maxFieldBytes: number;
  maxHttpImportBytes: number;
}

export default definePlugin<ImportExportOptions>(({ config, services, actions, hooks }) => {
  const deps = () => ({
    db: services.resolve<Knex>('db'),
    service: services.resolve<EntityService>('entityService'),
    registry: services.resolve<EntityRegistry>('entities'),
  });
  defineImportAction(actions, deps, config);
  hooks.tap(cliCommands, () => importExportCommands(config));
});
