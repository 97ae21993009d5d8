/**
 * Whether logging is on (the `logging` setting, cached per instance and refreshed through the change bus),
 * turning it on or off in the setting's transaction, and who writes: the acting contact's id set
 * transaction-locally (`crm.contact_id`) for the triggers to read, once per transaction, only while logging is on.
 */
import type { Knex } from 'knex';
import type { Api, Logger, Principal } from '../../kernel';
import { whenTransactionEnds, type ChangeBus, type EntityRegistry } from '../entity-core';
import { dropTriggers, syncLogTables } from './schema';

export const SETTING = 'logging';
export const TOPIC = 'audit-log';

export class AuditState {
  enabled = false;
  /** Transactions whose contact id is set already. */
  private readonly identified = new WeakSet<Knex>();

  constructor(
    private readonly registry: EntityRegistry,
    private readonly api: () => Api,
    private readonly pool: () => Knex,
    private readonly bus: () => ChangeBus,
    private readonly log: Logger,
  ) {}

  /** The stored setting, read in `db` (the caller's transaction). */
  async read(db: Knex): Promise<boolean> {
    const rows = (await this.api().call({
      version: 4,
      entity: 'Setting',
      action: 'get',
      params: { select: [SETTING] },
      trusted: true,
      db,
    })) as Array<{ name: string; value: unknown }>;
    const value = rows.find((row) => row.name === SETTING)?.value;
    return value === true || value === 1 || value === '1' || value === 'true';
  }

  /** Reads the setting again from committed data (another instance changed it, or a write rolled back). */
  async reload(): Promise<void> {
    try {
      this.enabled = await this.read(this.pool());
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'audit-log: reading the logging setting failed');
    }
  }

  /** After the setting changed, in its transaction: log tables and triggers made, or the triggers dropped. */
  async apply(db: Knex): Promise<void> {
    const on = await this.read(db);
    if (on) await syncLogTables(db, this.registry);
    else await dropTriggers(db);
    this.enabled = on;
    await this.bus().notify(db, TOPIC);
    // Whatever the transaction's outcome (the outermost one's), settle on what was committed.
    whenTransactionEnds(db, () => void this.reload());
  }

  /** At start (after migrations): with logging on, log tables are brought in step with the schema. */
  async start(db: Knex): Promise<void> {
    this.enabled = await this.read(db);
    if (this.enabled) await syncLogTables(db, this.registry);
  }

  /** Before a writing action's handler: the acting contact, for log_user_id. */
  async identify(principal: Principal, db: Knex): Promise<void> {
    if (!this.enabled || principal.contactId === null || this.identified.has(db)) return;
    this.identified.add(db);
    await db.raw("select set_config('crm.contact_id', ?, true)", [String(principal.contactId)]);
  }
}
