/**
 * Settings as stored: a declared default, overridden by the domain's row, and — for contact settings (4.7) —
 * by the contact's row. Read from the database on every call (nothing cached: instances agree at once).
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import { checkValue, type SettingSpec } from './catalogue';

export const DOMAIN_ID = 1;
type Values = Record<string, unknown>;

function invalid(message: string, field?: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', message, {
    details: { error_code: 'invalid value', ...(field ? { error_field: field } : {}) },
  });
}

/** APIv3 `domain_id`: absent, `all`, 1 or a list holding only 1 (this service is one domain). */
export function domainIds(given: unknown): number[] {
  if (given === undefined || given === null || given === '' || given === 'all' || given === 'current_domain')
    return [DOMAIN_ID];
  const list = Array.isArray(given) ? given : [given];
  if (list.every((item) => Number(item) === DOMAIN_ID)) return [DOMAIN_ID];
  throw invalid(`Invalid domain id: ${list.filter((item) => Number(item) !== DOMAIN_ID).join(', ')}`, 'domain_id');
}

export class SettingsStore {
  private readonly specs = new Map<string, SettingSpec>();

  /** `changed` runs after each write, in its transaction (the settings.changed hook). */
  constructor(private readonly changed: (db: Knex, names: string[]) => Promise<void> = async () => undefined) {}

  load(specs: SettingSpec[]): void {
    this.specs.clear();
    for (const spec of specs) this.specs.set(spec.name, spec);
  }

  all(): SettingSpec[] {
    return [...this.specs.values()];
  }

  spec(name: string): SettingSpec {
    const found = this.specs.get(name);
    if (!found) throw invalid(`Invalid setting: ${name}`, name);
    return found;
  }

  has(name: string): boolean {
    return this.specs.has(name);
  }

  /** The values of `names` (all when empty) for the domain, and a contact's own for contact settings. */
  async values(db: Knex, names: string[], contactId: number | null): Promise<Values> {
    const specs = names.length ? names.map((name) => this.spec(name)) : this.all();
    const out: Values = Object.fromEntries(specs.map((spec) => [spec.name, spec.default]));
    const rows = (await db('crm_setting')
      .whereIn(
        'name',
        specs.map((spec) => spec.name),
      )
      .andWhere('domain_id', DOMAIN_ID)
      .andWhere((where) => {
        where.whereNull('contact_id');
        if (contactId !== null) where.orWhere('contact_id', contactId);
      })
      .orderByRaw('contact_id nulls first')) as Array<{ name: string; value: unknown; contact_id: number | null }>;
    for (const row of rows) if (row.contact_id === null || this.spec(row.name).isContact) out[row.name] = row.value;
    return out;
  }

  /** Stores each value (checked against its type): a contact setting for `contactId` when given, else the domain's. */
  async set(db: Knex, values: Values, contactId: number | null, authorId: number | null): Promise<Values> {
    const checked: Values = {};
    for (const [name, value] of Object.entries(values)) checked[name] = checkValue(this.spec(name), value);
    await db.transaction(async (trx) => {
      for (const [name, value] of Object.entries(checked)) {
        const owner = this.spec(name).isContact ? contactId : null;
        await this.scope(trx, name, owner).delete();
        await trx('crm_setting').insert({
          name,
          value: JSON.stringify(value),
          domain_id: DOMAIN_ID,
          contact_id: owner,
          created_id: authorId,
        });
      }
      await this.changed(trx, Object.keys(checked));
    });
    return checked;
  }

  /** Back to the default: the stored values of `names` (for the contact, for contact settings) go. */
  async revert(db: Knex, names: string[], contactId: number | null): Promise<Values> {
    const out: Values = {};
    await db.transaction(async (trx) => {
      for (const name of names) {
        const spec = this.spec(name);
        await this.scope(trx, name, spec.isContact ? contactId : null).delete();
        out[name] = spec.default;
      }
      await this.changed(trx, names);
    });
    return out;
  }

  /** Stores the default of every domain setting that has no value yet (the reference's `fill`). */
  async fill(db: Knex): Promise<Values> {
    const stored = new Set(
      ((await db('crm_setting').whereNull('contact_id').select('name')) as Array<{ name: string }>).map(
        (row) => row.name,
      ),
    );
    const missing = this.all().filter((spec) => !spec.isContact && !stored.has(spec.name));
    if (missing.length)
      await db('crm_setting').insert(
        missing.map((spec) => ({ name: spec.name, value: JSON.stringify(spec.default), domain_id: DOMAIN_ID })),
      );
    return this.values(db, [], null);
  }

  private scope(db: Knex, name: string, contactId: number | null): Knex.QueryBuilder {
    const query = db('crm_setting').where({ name, domain_id: DOMAIN_ID });
    return contactId === null ? query.whereNull('contact_id') : query.where('contact_id', contactId);
  }
}
