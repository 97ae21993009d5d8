/** `Import.run` (APIv4): a CSV given as text, imported like `crm import` does; the answer is the summary. */
import type { Knex } from 'knex';
import { KernelError, type ActionContext, type ActionRegistrar } from '../../kernel';
import type { EntityRegistry, EntityService } from '../entity-core';
import { runImport } from './importer';
import type { ImportExportOptions } from './register';

type Deps = () => { db: Knex; service: EntityService; registry: EntityRegistry };

export function defineImportAction(actions: ActionRegistrar, deps: Deps, config: ImportExportOptions): void {
  actions.define({
    version: 4,
    entity: 'Import',
    action: 'run',
    description:
      'Imports contacts from CSV text (csv; mapping header → field, or guessed from the headers; ' +
      'onDuplicate skip|update|fill; match email|external_identifier); answers the summary and the rejected rows',
    params: {
      type: 'object',
      additionalProperties: false,
      required: ['csv'],
      properties: {
        csv: { type: 'string' },
        mapping: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
        onDuplicate: { type: 'string', enum: ['skip', 'update', 'fill'], default: 'skip' },
        match: { type: 'string', enum: ['email', 'external_identifier'], default: 'email' },
        checkPermissions: { type: 'boolean' },
      },
    },
    permission: 'administer CRM',
    handler: async (params: Record<string, unknown>, ctx: ActionContext) => {
      const csv = String(params.csv);
      if (Buffer.byteLength(csv) > config.maxHttpImportBytes)
        throw new KernelError(
          'E_INVALID_PARAMS',
          `csv is larger than ${config.maxHttpImportBytes} bytes: import big files with crm import`,
        );
      const summary = await runImport(
        { ...deps(), principal: ctx.principal },
        {
          input: { text: csv },
          map: params.mapping as Record<string, unknown> | undefined,
          rule: (params.onDuplicate as 'skip') ?? 'skip',
          on: (params.match as 'email') ?? 'email',
          batchSize: config.batchSize,
          batchesInFlight: config.batchesInFlight,
          csv: { maxRecordBytes: config.maxFieldBytes },
        },
      );
      return [summary];
    },
  });
}
