/**
 * APIv4 `get` resolutions, kept: what a get's params resolve to (the fields and paths selected, option
 * suffixes and their options, where with the entity's `beforeGet` conditions, orderBy, joins, groupBy, having),
 * so a get asked again (a page a client polls, the next page of a sync job) skips resolving it: ~10–20% of the
 * service's CPU for a light page over HTTP (docs/performance.md). The store then finds its kept statement.
 *
 * What a resolution depends on, and how each is covered:
 * - the params: their JSON text but `limit` and `offset` (read from the params on every call) is part of the key
 *   (a chained get is never kept: its chain adds fields);
 * - the reader: field visibility, `beforeGet` conditions (a session's own tokens) and join rules depend on the
 *   principal and the trust flag, so both are part of the key (ids, credential, flow, attributes such as the
 *   session, and the permissions in their order);
 * - metadata and option lists: everything is forgotten when the registry's options version moves (run-time
 *   metadata changes and option writes, on any instance through the change bus), as the store's plans are;
 * - permissions to join: not kept. Each call asks again whether the reader may `get` every entity the read
 *   joins onto (explicit joins and dotted paths), as the first call did; row access is asked by the store.
 * A kept resolution's query parts (where, sort, shape, aggregates) are frozen, so the statement a later call
 * builds from them is the one the first call built; its maps and option lists are read, never written.
 */
import {
  KeptByVersion,
  permissionsText,
  type Aggregate,
  type CompiledEntity,
  type Condition,
  type ExplicitJoin,
  type FieldDef,
  type OptionItem,
  type Query,
} from '../entity-core';
import type { Principal } from '../../kernel';
import type { ResolvedPath } from './params';
import type { Suffix } from './suffixes';

export interface GetResolution {
  entity: CompiledEntity;
  fields: Map<string, FieldDef>;
  aggregates: Map<string, Aggregate>;
  /** Suffixed columns (`field:label`) with the options they show. */
  suffixed: Array<{ key: string; base: string; suffix: Suffix; options: OptionItem[] }>;
  /** Stored values read only for a suffixed column. */
  hiddenBases: Set<string>;
  shape: { joins: ExplicitJoin[]; groupBy: Query['groupBy']; having: Query['having']; joinAccess: true };
  where: Condition[];
  sort: Query['sort'];
  rowCount: boolean;
  /** The paths the read crosses, for the join permission check every call makes. */
  paths: ResolvedPath[];
}

/** The longest params text whose resolution is kept. */
const MAX_PARAMS_TEXT = 8192;

export class GetResolutions extends KeptByVersion<GetResolution> {
  /** The key of a get for this reader; undefined when its params or principal are not plain data, or are long. */
  key(entity: CompiledEntity, params: Record<string, unknown>, reader: { principal: Principal; trusted: boolean }) {
    if (params.chain) return undefined;
    const { principal } = reader;
    const { limit, offset, ...resolved } = params; // eslint-disable-line @typescript-eslint/no-unused-vars
    let text: string;
    try {
      text = JSON.stringify([resolved, principal.contactId, principal.userId, principal.via, principal.flow ?? null]);
      if (principal.attributes) text += JSON.stringify(principal.attributes);
    } catch {
      return undefined;
    }
    if (text.length > MAX_PARAMS_TEXT) return undefined;
    return `${entity.name}\u0000${reader.trusted ? 1 : 0}\u0000${permissionsText(principal.permissions)}\u0000${text}`;
  }

  /** Keeps a resolution, its query parts frozen from here on. */
  override set(key: string, resolution: GetResolution): GetResolution {
    for (const part of [resolution.where, resolution.sort, resolution.shape, ...resolution.aggregates.values()])
      deepFreeze(part);
    return super.set(key, resolution);
  }
}

/** Freezes plain objects and arrays (the query's parts are plain data), depth first. */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  Object.freeze(value);
}
