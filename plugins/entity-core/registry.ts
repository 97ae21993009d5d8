/** The entity metadata registry (`entities` service). Entity plugins declare; everyone else reads. */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { CompiledEntity, EntityDef, EntityLifecycle, FieldDef } from './types';
import { snake } from './permissions';
import { whenTransactionEnds } from './transaction-end';

/** The reference's table name for an entity: `civicrm_<snake name>` (`EntityTag` → `civicrm_entity_tag`). */
export const referenceTable = (entity: string): string => `civicrm_${snake(entity)}`;

export interface OptionItem {
  value: string;
  name: string;
  label: string;
  /** A short form where the options have one (a country's ISO code, a state's abbreviation). */
  abbr?: string;
}

/** Loads the options of an option group (entity-option provides it). */
export type OptionGroupSource = (db: Knex, group: string) => Promise<OptionItem[]>;

export class EntityRegistry {
  private map = new Map<string, CompiledEntity>();
  /** {@link names} per API version, made again when the map changes (asked on every generic action call). */
  private listed = new Map<string, { map: Map<string, CompiledEntity>; size: number; names: string[] }>();
  private sealed = false;
  private groupSource: OptionGroupSource | undefined;
  private cache = new Map<string, OptionItem[]>();

  /** entity-option registers where option groups live. */
  setOptionGroupSource(fn: OptionGroupSource): void {
    this.groupSource = fn;
  }

  private bus?: { announce(db: Knex): Promise<void> };
  private optionsGeneration = 0;

  /** Forget cached options in this process. */
  invalidateOptions(): void {
    this.cache.clear();
    this.optionsGeneration++;
  }

  /** Moves on whenever cached options are forgotten: a plugin caching what option writes change compares it. */
  get optionsVersion(): number {
    return this.optionsGeneration;
  }

  /** Set by entity-core: how option writes reach the other instances. */
  useOptionBus(bus: { announce(db: Knex): Promise<void> }): void {
    this.bus = bus;
  }

  /** Transactions that announced an option change already (one announcement each is enough). */
  private announced = new WeakSet<Knex>();

  /**
   * Inside an option write's transaction: every instance forgets cached options on commit; this one also when it
   * ends either way (plans and get resolutions kept meanwhile may hold options only that transaction saw).
   */
  async optionsChanged(db: Knex): Promise<void> {
    if (db.isTransaction) {
      if (this.announced.has(db)) return;
      this.announced.add(db);
      whenTransactionEnds(db, () => this.invalidateOptions());
    }
    if (this.bus) await this.bus.announce(db);
    else this.invalidateOptions();
  }

  /**
   * The entities whose rows are the options of some field (`pseudoEntity` targets: FinancialType, Group,
   * LocationType…): writing one of them changes cached option lists.
   */
  optionSources(): string[] {
    const targets = new Set<string>();
    for (const entity of this.map.values())
      for (const field of entity.fields) if (field.pseudoEntity) targets.add(field.pseudoEntity.entity);
    return [...targets].filter((name) => this.map.has(name)).sort();
  }

  /** The options of a pseudoconstant field, or undefined when it has none. */
  async optionsFor(db: Knex, field: FieldDef): Promise<OptionItem[] | undefined> {
    if (field.options) return Object.entries(field.options).map(([value, label]) => ({ value, name: label, label }));
    const key = field.optionGroup
      ? `g:${field.optionGroup}`
      : field.pseudoEntity
        ? `e:${field.pseudoEntity.entity}`
        : undefined;
    if (!key) return undefined;
    const hit = this.cache.get(key);
    if (hit) return hit;
    let items: OptionItem[] = [];
    if (field.optionGroup) items = this.groupSource ? await this.groupSource(db, field.optionGroup) : [];
    else if (field.pseudoEntity) {
      const pe = field.pseudoEntity;
      const target = this.get(pe.entity);
      const label = target.byName.get(pe.labelField)!;
      const name = target.byName.get(pe.nameField ?? 'name') ?? label;
      const abbr = pe.abbrField ? target.byName.get(pe.abbrField) : undefined;
      const columns: Record<string, string> = {
        id: 'id',
        label: label.column ?? label.name,
        name: name.column ?? name.name,
      };
      if (abbr) columns.abbr = abbr.column ?? abbr.name;
      const rows = (await db(target.table).select(columns).orderBy('id')) as Array<Record<string, string>>;
      const item = (r: Record<string, string>) => ({ value: String(r.id), name: r.name, label: r.label });
      items = rows.map((r) => (abbr ? { ...item(r), abbr: r.abbr } : item(r)));
    }
    this.cache.set(key, items);
    return items;
  }

  define(def: EntityDef, lifecycle: EntityLifecycle = {}): void {
    if (this.sealed) throw new KernelError('E_REGISTRY_SEALED', `Entity ${def.name} declared after boot`);
    if (this.map.has(def.name)) throw new KernelError('E_ACTION_DUPLICATE', `Entity ${def.name} is declared twice`);
    this.map.set(def.name, compile(def, [lifecycle]));
  }

  /** Adds behaviour to an entity declared elsewhere (before/after save, before delete, before get). */
  extend(entity: string, lifecycle: EntityLifecycle): void {
    const e = this.get(entity);
    (e.lifecycle as EntityLifecycle[]).push(lifecycle);
  }

  /**
   * Adds computed fields (a `collection`, `related`, `via` or `labelOf` field: no column) to an entity declared
   * by another plugin, before boot ends: entity-group gives Contact its `groups`, entity-tag its `tags`.
   */
  addFields(entity: string, fields: FieldDef[]): void {
    if (this.sealed) throw new KernelError('E_REGISTRY_SEALED', `Fields added to ${entity} after boot`);
    const compiled = this.get(entity) as CompiledEntity & { fields: FieldDef[] };
    for (const field of fields) {
      if (!field.collection && !field.related && !field.via && !field.labelOf)
        throw new KernelError(
          'E_MANIFEST_INVALID',
          `${entity}.${field.name}: only computed fields may be added to another plugin's entity`,
        );
      if (compiled.byName.has(field.name))
        throw new KernelError('E_MANIFEST_INVALID', `${entity}.${field.name} is declared twice`);
      compiled.fields = [...compiled.fields, field];
      (compiled.byName as Map<string, FieldDef>).set(field.name, field);
      if (!compiled.lookup.has(field.name)) (compiled.lookup as Map<string, FieldDef>).set(field.name, field);
    }
  }

  seal(): void {
    this.sealed = true;
    this.booted = new Map(this.map);
  }

  /** The entities as declared at boot, before any run-time definitions. */
  private booted = new Map<string, CompiledEntity>();

  /**
   * Run-time metadata (custom data, docs/adr/0015): replaces every run-time entity and every field added at
   * run time with these, in one swap. A request holding an entity keeps the version it read; the next lookup
   * sees the new one. Entities declared at boot keep their lifecycle (one shared list), so taps still apply.
   */
  applyRuntime(entities: EntityDef[], fields: Map<string, FieldDef[]>): void {
    const next = new Map(this.booted);
    for (const [name, added] of fields) {
      const base = next.get(name);
      if (!base) continue;
      const taken = added.filter((field) => !base.byName.has(field.name));
      next.set(name, compile({ ...base, fields: [...base.fields, ...taken] }, base.lifecycle as EntityLifecycle[]));
    }
    for (const def of entities) {
      if (this.booted.has(def.name))
        throw new KernelError('E_INVALID_PARAMS', `${def.name} is the name of an entity the service declares`);
      next.set(def.name, compile(def, [{}]));
    }
    this.map = next;
    this.invalidateOptions();
  }

  find(name: string): CompiledEntity | undefined {
    return this.map.get(name);
  }

  get(name: string): CompiledEntity {
    const e = this.map.get(name);
    if (!e) throw new KernelError('E_ACTION_NOT_FOUND', `Unknown entity ${name}`);
    return e;
  }

  /**
   * The entity stored in this table (dynamic references name tables: `entity_table` = 'crm_contact'), or
   * named by the reference's table name for it (`civicrm_contact`, `civicrm_entity_tag`), which is what
   * clients send and what the reference's option lists (`tag_used_for`, `note_used_for`) hold.
   */
  byTable(table: string): CompiledEntity | undefined {
    if (this.tables?.map !== this.map) {
      // Own table names first, so one wins over another entity's reference spelling; made again with the map.
      const byName = new Map<string, CompiledEntity>();
      for (const entity of this.map.values()) if (!byName.has(entity.table)) byName.set(entity.table, entity);
      for (const entity of this.map.values())
        if (!byName.has(referenceTable(entity.name))) byName.set(referenceTable(entity.name), entity);
      this.tables = { map: this.map, byName };
    }
    return this.tables.byName.get(table);
  }

  /** {@link byTable}'s index, for the current map (every dynamic reference a write checks asks it). */
  private tables?: { map: Map<string, CompiledEntity>; byName: Map<string, CompiledEntity> };

  /** Entity names, optionally only those an API version serves. */
  names(version?: 3 | 4): string[] {
    const key = String(version);
    const cached = this.listed.get(key);
    if (cached && cached.map === this.map && cached.size === this.map.size) return [...cached.names];
    const names = [...this.map.values()]
      .filter((e) => version === undefined || (e.apis ?? [3, 4]).includes(version))
      .map((e) => e.name)
      .sort();
    this.listed.set(key, { map: this.map, size: this.map.size, names });
    return [...names];
  }

  /** Resolves a key (name, unique name, alias) to a field, or undefined. */
  fieldFor(entity: CompiledEntity, key: string): FieldDef | undefined {
    return entity.lookup.get(key);
  }
}

/** Field maps of a declaration; names and columns are checked (they become SQL identifiers). */
function compile(def: EntityDef, lifecycle: EntityLifecycle[]): CompiledEntity {
  if (!/^[a-z_][a-z0-9_]*$/.test(def.table))
    throw new KernelError('E_MANIFEST_INVALID', `Entity ${def.name}: bad table name ${def.table}`);
  const byName = new Map<string, FieldDef>();
  const lookup = new Map<string, FieldDef>();
  for (const field of def.fields) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field.column ?? field.name))
      throw new KernelError('E_MANIFEST_INVALID', `Entity ${def.name}: bad column ${field.column ?? field.name}`);
    // Ciphertext is longer than the value and never equal for equal values: a text column, no filters.
    if (field.encrypted && field.type !== 'Text' && field.type !== 'Json')
      throw new KernelError(
        'E_MANIFEST_INVALID',
        `Entity ${def.name}: encrypted field ${field.name} must be of type Text or Json`,
      );
    byName.set(field.name, field);
  }
  for (const field of def.fields) {
    for (const k of [field.name, field.uniqueName, ...(field.aliases ?? [])])
      if (k && !lookup.has(k)) lookup.set(k, field);
  }
  const { byName: _b, lookup: _l, lifecycle: _c, ...plain } = def as CompiledEntity;
  return { ...plain, byName, lookup, lifecycle };
}
