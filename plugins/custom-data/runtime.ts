/**
 * The custom data every instance serves (docs/adr/0015): metadata read from crm_custom_group and
 * crm_custom_field into the entity registry, and each group's table kept in step with its field rows inside
 * the transaction that changes them. Other instances hear of a change through the change bus once it commits.
 */
import type { Knex } from 'knex';
import { defineHook, KernelError, type Logger } from '../../kernel';
import {
  applySchemaSteps,
  diffSchemas,
  introspectSchema,
  sqlState,
  tableFromEntity,
  whenTransactionEnds,
  type ChangeBus,
  type CompiledEntity,
  type EntityDef,
  type EntityRegistry,
} from '../entity-core';
import { extendedName } from './entities/CustomGroup';
import {
  customMetadata,
  valueEntity,
  valueEntityName,
  type CustomMetadata,
  type FieldRow,
  type GroupRow,
} from './value-tables';

export const TOPIC = 'custom-data';

/**
 * After a group's table was created or altered, in the same transaction: (transaction, table). audit-log keeps
 * the table's log table and trigger in step here.
 */
export const customDataTableChanged = defineHook.series<[Knex, string]>(
  'customData.tableChanged',
  "After a custom group's table is created or altered, in the writing transaction: (transaction, table name)",
);

/** Serialises schema changes across instances (both run DDL on the same tables). */
const LOCK_KEY = 7_170_001;

export class CustomData {
  meta: CustomMetadata = { entities: [], fields: new Map(), byId: new Map() };
  private started = 0;
  private applied = 0;

  constructor(
    private readonly registry: EntityRegistry,
    private readonly bus: ChangeBus,
    private readonly pool: Knex,
    private readonly log: Logger,
    private readonly tableChanged: (db: Knex, table: string) => Promise<void> = async () => undefined,
  ) {
    bus.on(TOPIC, () => void this.reload());
  }

  /** The entity a group extends, as declared (boot fields only). */
  extended(group: Pick<GroupRow, 'extends'>): CompiledEntity | undefined {
    return this.registry.find(extendedName(group.extends, (name) => !!this.registry.find(name)) ?? '');
  }

  /** The group whose values entity this is (`Custom_<group name>`). */
  groupOf(entity: string): GroupRow | undefined {
    return this.groups.get(entity);
  }

  /** Active and inactive groups by value entity name, as last loaded. */
  private groups = new Map<string, GroupRow>();

  /** Reads the metadata and swaps it into the registry; a load that started later always wins. */
  async load(db: Knex): Promise<void> {
    const generation = ++this.started;
    const [groups, fields] = await Promise.all([readGroups(db), readFields(db)]);
    if (generation < this.applied) return;
    this.applied = generation;
    const meta = customMetadata(groups, fields, (name) => this.bootEntity(name));
    this.registry.applyRuntime(meta.entities, meta.fields);
    this.meta = meta;
    this.groups = new Map(groups.map((group) => [valueEntityName(group), group]));
  }

  /** Reload from committed data (another instance's change, or after this instance's own transaction ends). */
  reload(): Promise<void> {
    const run: Promise<void> = this.load(this.pool)
      .catch((err: unknown) =>
        this.log.error({ err: (err as Error).message }, 'custom data: reloading metadata failed'),
      )
      .finally(() => this.reloading.delete(run));
    this.reloading.add(run);
    return run;
  }

  /**
   * Settles once the reloads under way have: the kernel's close waits for it, so a CLI command that ends
   * right after a custom-data write does not close the pool under its own reload (logged as a failure).
   */
  async settled(): Promise<void> {
    await Promise.all([...this.reloading]);
  }

  private readonly reloading = new Set<Promise<void>>();

  /**
   * Inside a write's transaction: builds the group's table to match its field rows (create, add, alter or
   * drop columns and indexes), then serves the new metadata at once and tells the other instances.
   */
  changed(db: Knex, groupId: number): Promise<void> {
    return this.schemaChange(db, async () => {
      const table = await this.syncTable(db, groupId);
      if (table) await this.tableChanged(db, table);
    });
  }

  /** Drops a group's table (its values go with it), in the deleting transaction. */
  dropTable(db: Knex, table: string): Promise<void> {
    return this.schemaChange(db, () => db.schema.dropTableIfExists(table));
  }

  /** DDL under the advisory lock, then the new metadata served here at once and announced at commit. */
  private async schemaChange(db: Knex, ddl: () => Promise<unknown>): Promise<void> {
    await db.raw('select pg_advisory_xact_lock(?)', [LOCK_KEY]);
    await ddl();
    await this.load(db);
    await this.bus.notify(db, TOPIC);
    // Whatever the transaction's outcome (the outermost one's, when this runs in a savepoint), settle on what was
    // committed.
    whenTransactionEnds(db, this.reloadLater);
  }

  private readonly reloadLater = () => void this.reload();

  private async syncTable(db: Knex, groupId: number): Promise<string | undefined> {
    const [group] = (await readGroups(db)).filter((row) => row.id === groupId);
    if (!group) return;
    const extended = this.extended(group);
    if (!extended) return;
    // Inactive fields keep their columns (and values); only deleted fields lose them.
    const fields = (await readFields(db)).filter((row) => row.custom_group_id === groupId);
    const wanted = valueEntity(group, fields, extended, (name) => !!this.registry.find(name));
    const tableOf = (name: string) => (name === extended.name ? extended.table : this.registry.get(name).table);
    const target = { tables: { [wanted.table]: tableFromEntity(wanted, tableOf) } };
    const actual = await introspectSchema(db, [wanted.table]);
    const steps = diffSchemas(actual, target);
    try {
      await applySchemaSteps(db, steps);
    } catch (err) {
      const code = sqlState(err) ?? '';
      // A reference field's new foreign key, over values already stored that point at no record.
      if (code === '23503')
        throw new KernelError(
          'E_INVALID_PARAMS',
          'Values already stored in a reference field point at records that do not exist; empty them first',
          { details: { error_code: 'constraint violation' }, cause: err },
        );
      if (code.startsWith('22') || code === '42804')
        throw new KernelError(
          'E_INVALID_PARAMS',
          'The values already stored cannot be converted to the new data type',
          {
            details: { error_code: 'invalid value' },
            cause: err,
          },
        );
      throw err;
    }
    return wanted.table;
  }

  private bootEntity(name: string): EntityDef | undefined {
    const entity = this.registry.find(name);
    return entity && !name.startsWith('Custom_') ? entity : undefined;
  }
}

async function readGroups(db: Knex): Promise<GroupRow[]> {
  const rows = (await db('crm_custom_group')
    .select('id', 'name', 'title', 'extends', 'extends_entity_column_value', 'table_name', 'is_multiple', 'is_active')
    .orderBy(['weight', 'id'])) as GroupRow[];
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

async function readFields(db: Knex): Promise<FieldRow[]> {
  const rows = (await db('crm_custom_field as f')
    .leftJoin('crm_option_group as g', 'g.id', 'f.option_group_id')
    .select(
      'f.id',
      'f.custom_group_id',
      'f.name',
      'f.label',
      'f.data_type',
      'f.html_type',
      'f.column_name',
      'f.text_length',
      'f.is_searchable',
      'f.is_active',
      'f.serialize',
      'f.fk_entity',
      'f.fk_entity_on_delete',
      'f.date_format',
      'g.name as option_group',
    )
    .orderBy(['f.weight', 'f.id'])) as FieldRow[];
  return rows.map((row) => ({ ...row, id: Number(row.id), custom_group_id: Number(row.custom_group_id) }));
}
