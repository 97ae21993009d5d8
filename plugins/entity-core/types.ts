/** Entity declarations: data the store, the generic APIv3 actions and (later) APIv4 work from. */
import type { AwilixContainer } from 'awilix';
import type { Knex } from 'knex';
import type { Cradle, Permission, Principal, WireRequest } from '../../kernel';

export type FieldType =
  'Int' | 'String' | 'Text' | 'Boolean' | 'Date' | 'Timestamp' | 'Float' | 'Money' | 'Email' | 'Url' | 'Json';

export interface FieldDef {
  name: string;
  type: FieldType;
  title: string;
  description?: string;
  /** DB column; defaults to `name`. */
  column?: string;
  /** NOT NULL in the DB. */
  required?: boolean;
  /** Required on create (APIv3 `api.required`) when no id is given. */
  apiRequired?: boolean;
  /** Applied on create when absent (APIv3 `api.default`). */
  apiDefault?: unknown;
  /** Default applied to get filters when absent (e.g. Contact `is_deleted` 0). */
  getDefault?: unknown;
  /**
   * APIv3 only: default applied to get filters when absent (the reference's `_<entity>_get_spec` api.default,
   * e.g. Note and EntityTag `entity_table` = civicrm_contact; APIv4 has no such default).
   */
  v3GetDefault?: unknown;
  /** Foreign key: the entity this field points at (by id). */
  fk?: string;
  /** Option-group pseudoconstant: values come from OptionValue rows of this group. */
  optionGroup?: string;
  /** Pseudoconstant over another entity's table (id → label). */
  pseudoEntity?: { entity: string; labelField: string; nameField?: string; abbrField?: string };
  /** Fixed options `{value: label}` for small enums. */
  options?: Record<string, string>;
  /**
   * `Json` fields: APIv3 get returns the value as a structure (leaves as strings) rather than JSON text, as the
   * reference does for SavedSearch's `form_values` and `api_params`.
   */
  v3Structure?: boolean;
  /** 5.0 `serialize`: how a multi-valued field is stored. `true` means 'separator' (\x01a\x01b\x01). */
  serialize?: boolean | 'separator' | 'json';
  /** Column default (SQL side): a literal, or 'now' for the current timestamp. */
  default?: string | number | boolean | null | { sql: 'now' };
  /** For `fk` fields: what deleting the referenced row does (default 'set null'; 'cascade' for owned rows). */
  onDelete?: 'cascade' | 'set null' | 'restrict';
  /**
   * Dynamic reference: this field holds an id of the entity whose table is named by the field `tableField`
   * (`entity_table` + `entity_id`). Writes check the table names a known entity (one of `entities`, when
   * given) and that the row exists.
   */
  /**
   * A dynamic reference (`entity_table` + `entity_id`): checked on every write; with `onDelete: 'cascade'`
   * the record goes (through the entity service, its own hooks and cascades included) when the row it
   * points at is deleted for good.
   */
  dynamicFk?: { tableField: string; entities?: string[]; onDelete?: 'cascade' };
  /** Money/precision: numeric(precision, scale) for Money (default 20,2) and Float overrides. */
  precision?: [number, number];
  uniqueName?: string;
  aliases?: string[];
  maxlength?: number;
  /** Not writable through the API (computed, or managed by hooks). */
  readonly?: boolean;
  /** A secret (api_key): never in default output; returned only to holders of one of these permissions. */
  secret?: string[];
  /**
   * Stored encrypted (AES-256-GCM with the host's secret box, `crm secrets rotate`): the store encrypts it on
   * the way to the database and decrypts it on the way back. Text and Json fields (stored as text); not usable
   * in filters.
   */
  encrypted?: boolean;
  /**
   * Read-only field taken from a related entity's row that points back here (Contact's primary
   * `email`): LEFT JOIN <entity> ON <entity>.<fk> = this.id AND <where>.
   */
  related?: { entity: string; field: string; fk: string; where?: Record<string, unknown> };
  /**
   * A value kept as rows of a child entity rather than a column (Activity's `target_contact_id` in
   * ActivityContact): read as the list of the child rows' `field` (or the first, with `single`), filtered
   * through EXISTS, and written by replacing those rows after the record's own write, in its transaction.
   * `where` picks the child rows that hold this field (`{record_type_id: 3}`); it is set on new rows.
   * Selected only when asked for by name. See plugins/entity-core/collections.ts.
   */
  collection?: { entity: string; fk: string; field: string; where?: Record<string, unknown>; single?: boolean };
  /**
   * A custom field (custom-data): its attributes as APIv3 getfields lists them (`custom_group_id`, `data_type`,
   * `html_type`, `groupTitle`, `extends`…); APIv3 writes take it (the custom-data plugin stores it).
   */
  custom?: Record<string, unknown>;
  /**
   * APIv4 getFields lists the referenced record's fields as `<name>.<field>` instead of this reference (a
   * custom group on the entity it extends: `More_About.colour`). For `related` references with `fk`.
   */
  listFields?: boolean;
  /** Read-only label of another field's option value (`gender` → label of `gender_id`). */
  labelOf?: string;
  /** Read-only value reached through an FK path (`current_employer` = `employer_id.organization_name`). */
  via?: string;
}

export interface IndexDef {
  name: string;
  /** Field names, or SQL expressions over them written by the plugin author, e.g. 'lower(sort_name)'. */
  fields: string[];
  unique?: boolean;
  /** Covering columns (INCLUDE). */
  include?: string[];
  /** Operator class per expression/field, e.g. 'text_pattern_ops'. */
  opclass?: string;
  /** Partial index condition (SQL written by the plugin author). */
  where?: string;
}

/** Per-entity permission map (§6.2); keys: get, create, update, delete, default, meta, or an action name. */
export type PermissionMap = Partial<Record<string, Permission>>;

export interface SaveContext {
  db: Knex;
  principal: Principal;
  /** Params as the caller sent them (after alias mapping). */
  params: Record<string, unknown>;
  /** The stored row before an update (column names), or null on create. */
  existing: Record<string, unknown> | null;
  /** The other entities through the entity service: same transaction, trusted (no row access, no join checks). */
  entities: import('./entities').Entities;
  /**
   * On a create only: records to write in the same statement as the new row (one round trip; save-linked.ts),
   * where `linkTo(0)` is the new row's id and `linkTo(i)` the i-th record queued (from 1). Their lifecycle
   * runs as in `entities.createLinked`; they are trusted, like `entities`.
   */
  createWith?(records: Array<{ entity: string; values: Record<string, unknown> }>): void;
}

/** A batch of creates ({@link EntityLifecycle.beforeSaveMany}): one transaction, each row's params in order. */
export interface BatchSaveContext {
  db: Knex;
  principal: Principal;
  params: Record<string, unknown>[];
  entities: import('./entities').Entities;
}

export interface EntityLifecycle {
  /** Validates and completes the values about to be written (field names); may throw. Returns the values. */
  beforeSave?(
    values: Record<string, unknown>,
    ctx: SaveContext,
  ): Promise<Record<string, unknown> | void> | Record<string, unknown> | void;
  afterSave?(row: Record<string, unknown>, ctx: SaveContext): Promise<void> | void;
  /**
   * Its beforeSave and afterSave read no rows that another record of a linked create writes (save-linked.ts),
   * so its entity's records may share that statement; without it they are written one by one, in order.
   */
  linkSafe?: boolean;
  /**
   * Names besides the entity's fields that its hooks read from the save's params, which in-process callers may
   * pass to `sc.entities.save` (PledgePayment's `_pledge_schedule`). Any other name that is no field is refused.
   */
  params?: readonly string[];
  /**
   * A batch of creates (`saveMany`) runs these instead of beforeSave/afterSave when a tap has them: the same
   * rules for N new rows in a few queries. A tap without them gets its per-row hooks, row by row.
   */
  beforeSaveMany?(
    rows: Record<string, unknown>[],
    ctx: BatchSaveContext,
  ): Promise<Record<string, unknown>[] | void> | Record<string, unknown>[] | void;
  afterSaveMany?(rows: Record<string, unknown>[], ctx: BatchSaveContext): Promise<void> | void;
  /** Runs after a delete (also one a beforeDelete tap handled itself); the row as it was. */
  afterDelete?(row: Record<string, unknown>, ctx: SaveContext): Promise<void> | void;
  /** May throw to refuse; may return 'handled' when it did the delete itself (e.g. trash). */
  beforeDelete?(row: Record<string, unknown>, ctx: SaveContext): Promise<'handled' | void> | 'handled' | void;
  /**
   * Adjusts get params before the query is built (Contact's trash default, name search): may return
   * new params and extra conditions (paths from metadata only). For APIv4 (no `api`), its answer must depend on
   * the params, the principal and the trust flag only (no clock, no database): APIv4 keeps a get's resolution
   * for the same params and reader (plugins/api4/get-resolutions.ts).
   */
  beforeGet?(
    params: Record<string, unknown>,
    ctx: { principal: Principal; trusted?: boolean; api?: 3 | 4 },
  ): { params?: Record<string, unknown>; where?: import('./conditions').Condition[] } | void;
  /**
   * Rewrites a filter on one of the entity's fields as other conditions, in every read and through both APIs
   * (Contact's `groups` also matching smart groups' members). The conditions returned must not filter on the
   * same field again (use an `exists` on the child entity instead).
   */
  expandFilter?(filter: import('./conditions').Filter): import('./conditions').Condition | undefined;
}

export interface EntityDef {
  name: string;
  table: string;
  fields: FieldDef[];
  indexes?: IndexDef[];
  permissions?: PermissionMap;
  /** The field holding the owning contact's id, for row access (`id` on Contact, `contact_id` on Email…). */
  ownerField?: string;
  /** Field used as label by getlist / pseudoconstants (`sort_name`, `label`, `title`, `name`). */
  labelField?: string;
  /** The record's title as people read it (APIv4 `autocomplete` labels; default `labelField`): Contact's `display_name`. */
  titleField?: string;
  /** How get renders NULL columns: omitted (DAO style, default) or `""` (Contact's query object). */
  nulls?: 'omit' | 'empty';
  /** Fields returned by get when no `return` is given; default all non-secret fields. */
  defaultReturn?: string[];
  description?: string;
  /** get output keys use unique names (`contact_is_deleted`), as the query-object entities do. */
  uniqueNamesOnGet?: boolean;
  /** API versions whose generic actions serve this entity; default both. The OAuth entities are APIv4-only. */
  apis?: Array<3 | 4>;
}

export interface CompiledEntity extends EntityDef {
  readonly byName: ReadonlyMap<string, FieldDef>;
  /** name, unique name and aliases → field. */
  readonly lookup: ReadonlyMap<string, FieldDef>;
  readonly lifecycle: EntityLifecycle[];
}

/** One call to an API engine (the `api3` and `api4` services take the same request). */
export interface EngineRequest {
  entity: string;
  action: string;
  params: Record<string, unknown>;
  principal: Principal;
  scope: AwilixContainer<Cradle>;
  /** The ambient transaction (in-process calls from a handler). */
  db?: Knex;
  /** Trusted in-process code: no authorization, no row access (the one trust flag); the principal stays who it is. */
  trusted?: boolean;
  /** A binding writes the answer straight out as compact JSON (kernel ApiCallRequest.wire). */
  wire?: WireRequest;
}
