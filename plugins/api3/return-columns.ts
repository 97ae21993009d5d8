/**
 * The columns of an APIv3 get, kept: what its `return` list (or the entity's default one) resolves to — each
 * column's key in the record, the path it is read from, its field, and the option labels it shows — so a get
 * asked again skips resolving ~50 default fields and building their label maps (docs/performance.md).
 *
 * What the columns depend on, and how each is covered:
 * - the entity (an entry answers only for the metadata object it was made with) and the `return` list (the key);
 * - the reader, only through secret fields a `return` list names (left out unless a permission lets the reader
 *   see them): with a `return` list, the reader's permissions are part of the key;
 * - option lists (labels): everything is forgotten when the registry's options version moves (KeptByVersion).
 * Filters, sort and paging are not kept: their values change from call to call (and `is_current` reads today).
 */
import type { Knex } from 'knex';
import type { Principal } from '../../kernel';
import {
  KeptByVersion,
  permissionsText,
  type CompiledEntity,
  type EntityRegistry,
  type FieldDef,
} from '../entity-core';
import { resolvePath } from './params';
import { labelsJson } from './wire-rows';

export interface ReturnColumn {
  /** The record's key. */
  key: string;
  /** What is read: the field name or dotted path (the `via` of a derived field). */
  path: string;
  field: FieldDef;
}

export interface ReturnColumns {
  entity: CompiledEntity;
  columns: ReturnColumn[];
  /** The paths to select: each column's, or for an option label the stored value it shows. */
  selectPaths: string[];
  /** Per labelled column key: stored value → label, and the same as JSON text for the database rendering. */
  labelMaps: Map<string, Map<string, string>>;
  labelTexts: Map<string, string>;
}

/** The longest `return` list text whose columns are kept. */
const MAX_RETURN_TEXT = 4096;

export class KeptReturnColumns extends KeptByVersion<ReturnColumns> {
  /** The key of a get's columns for this reader; undefined when its `return` list is long. */
  key(entity: CompiledEntity, returned: string[] | undefined, principal: Principal): string | undefined {
    if (!returned) return `${entity.name}\u0000`;
    const text = returned.join('\u0001');
    if (text.length > MAX_RETURN_TEXT) return undefined;
    return `${entity.name}\u0000${text}\u0000${permissionsText(principal.permissions)}`;
  }

  /** Keeps a get's columns, frozen from here on (a later get's query reads them, never writes them). */
  override set(key: string, value: ReturnColumns): ReturnColumns {
    for (const column of value.columns) Object.freeze(column);
    Object.freeze(value.columns);
    Object.freeze(value.selectPaths);
    return super.set(key, value);
  }
}

/** Resolves a get's columns: the `return` list's known fields the reader may see, or the default list. */
export async function resolveColumns(
  registry: EntityRegistry,
  db: Knex,
  entity: CompiledEntity,
  returned: string[] | undefined,
  defaults: () => string[],
  principal: Principal,
): Promise<ReturnColumns> {
  const perms = principal.permissions;
  const mayRead = (f: FieldDef) => !f.secret || perms.has('*') || f.secret.some((x) => perms.has(x));
  // Unknown fields and secrets the reader may not see are dropped, as the reference does with check_permissions.
  const requested = returned?.filter((r) => {
    const x = resolvePath(registry, entity, r, 'name');
    return x && mayRead(x.field);
  });
  const wanted = requested?.length ? requested : defaults();
  const columns: ReturnColumn[] = [];
  const seen = new Set<string>();
  for (const wantedPath of wanted) {
    const resolved = resolvePath(registry, entity, wantedPath, 'name')!;
    const dotted = wantedPath.includes('.');
    const path = dotted ? wantedPath : resolved.field.name;
    const key = dotted
      ? wantedPath
      : entity.uniqueNamesOnGet && resolved.field.uniqueName
        ? resolved.field.uniqueName
        : resolved.field.name;
    if (seen.has(key)) continue;
    seen.add(key);
    columns.push({ key, path: resolved.field.via && !dotted ? resolved.field.via : path, field: resolved.field });
  }
  if (!seen.has('id')) {
    const idf = entity.byName.get('id')!;
    if (entity.uniqueNamesOnGet) columns.push({ key: 'id', path: 'id', field: idf });
    else columns.unshift({ key: 'id', path: 'id', field: idf });
  }
  const selectPaths = new Set(columns.filter((x) => !x.field.labelOf).map((x) => x.path));
  for (const column of columns) if (column.field.labelOf) selectPaths.add(column.field.labelOf);
  const labelMaps = new Map<string, Map<string, string>>();
  const labelTexts = new Map<string, string>();
  for (const column of columns.filter((y) => y.field.labelOf)) {
    const source = entity.byName.get(column.field.labelOf!)!;
    const options = (await registry.optionsFor(db, source)) ?? [];
    labelMaps.set(column.key, new Map(options.map((option) => [option.value, option.label])));
    labelTexts.set(column.key, labelsJson(options));
  }
  return { entity, columns, selectPaths: [...selectPaths], labelMaps, labelTexts };
}
