/**
 * APIv3 EntityTag.create and EntityTag.delete as the reference answers them: every key starting with
 * `contact_id`/`entity_id` and `tag_id` (a value or a list; tags also by name) is combined, each pair added or
 * removed, and the answer is counts (`added`, `not_added` / `removed`, `not_removed`, `total_count`), not records.
 */
import { KernelError, type ActionContext, type ActionRegistrar } from '../../kernel';
import type { EntityService, EntitySession } from '../entity-core';

type Row = Record<string, unknown>;

function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' && value.includes(',')) return value.split(',').map((item) => item.trim());
  return [value];
}

/** The ids a key family gives (`contact_id`, `contact_id.1`, `entity_id`…), lists flattened. */
function collect(params: Row, prefixes: string[]): unknown[] {
  const out: unknown[] = [];
  for (const [key, value] of Object.entries(params))
    if (prefixes.some((prefix) => key.startsWith(prefix)) && value !== null && value !== undefined && value !== '')
      out.push(...listOf(value));
  return out;
}

function refused(message: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 0 } });
}

interface Pairs {
  table: string;
  entityIds: number[];
  tagIds: number[];
}

/** Tag ids from ids or names (a name or label that matches no tag is refused). */
async function tagIdsOf(service: EntityService, session: EntitySession, raw: unknown[]): Promise<number[]> {
  const out: number[] = [];
  const tags = service.registry.get('Tag');
  for (const item of raw) {
    if (/^\d+$/.test(String(item))) {
      out.push(Number(item));
      continue;
    }
    const byName = {
      or: [
        { path: 'name', op: '=' as const, value: item },
        { path: 'label', op: '=' as const, value: item },
      ],
    };
    const [found] = await service.get({ ...session, trusted: true }, tags, {
      where: [byName],
      select: ['id'],
      limit: 1,
    });
    if (!found) throw refused(`'${String(item)}' is not a valid option for field tag_id`);
    out.push(Number(found.id));
  }
  return out;
}

async function pairsOf(service: EntityService, session: EntitySession, params: Row, op: 'add' | 'remove') {
  const entityIds = collect(params, ['contact_id', 'entity_id']).map(Number);
  const table =
    typeof params.entity_table === 'string' && params.entity_table ? params.entity_table : 'civicrm_contact';
  if (!entityIds.length) throw refused('contact_id is a required field');
  let tagIds = await tagIdsOf(service, session, collect(params, ['tag_id']));
  if (!tagIds.length) {
    if (op === 'add') throw refused('tag_id is a required field');
    // Removing without tag_id removes every tag of the (first) record.
    const rows = await service.get({ ...session, trusted: true }, service.registry.get('EntityTag'), {
      where: [
        { path: 'entity_id', op: '=', value: entityIds[0] },
        { path: 'entity_table', op: '=', value: table },
      ],
      select: ['tag_id'],
    });
    tagIds = rows.map((row) => Number(row.tag_id));
  }
  return { table, entityIds, tagIds } satisfies Pairs;
}

async function existing(
  service: EntityService,
  session: EntitySession,
  table: string,
  entityId: number,
  tagId: number,
) {
  const [row] = await service.get({ ...session, trusted: true }, service.registry.get('EntityTag'), {
    where: [
      { path: 'entity_id', op: '=', value: entityId },
      { path: 'entity_table', op: '=', value: table },
      { path: 'tag_id', op: '=', value: tagId },
    ],
    limit: 1,
  });
  return row ?? null;
}

/** Adds (or removes) every pair; the counts as the reference's `_civicrm_api3_entity_tag_common` sums them. */
async function apply(service: EntityService, ctx: ActionContext, params: Row, op: 'add' | 'remove'): Promise<Row> {
  const session: EntitySession = { db: ctx.db, principal: ctx.principal, trusted: ctx.trusted, scope: ctx.scope };
  const entity = service.registry.get('EntityTag');
  const { table, entityIds, tagIds } = await pairsOf(service, session, params, op);
  let done = 0;
  let skipped = 0;
  for (const tagId of tagIds)
    for (const entityId of entityIds) {
      const row = await existing(service, session, table, entityId, tagId);
      if (op === 'add' && !row) {
        const values = { entity_table: table, entity_id: entityId, tag_id: tagId };
        await service.save(session, entity, values, { params: values });
        done++;
      } else if (op === 'remove' && row) {
        await service.delete(session, entity, row);
        done++;
      } else skipped++;
    }
  const total = tagIds.length * entityIds.length;
  const counts: Row =
    op === 'add'
      ? { is_error: 0, total_count: total, added: done, not_added: skipped }
      : { is_error: 0, total_count: total, removed: done, not_removed: skipped };
  // The reference reports a call that changed nothing as an error, counts included.
  if (!done) return { ...counts, is_error: 1, error_message: `Unable to ${op} tags` };
  return counts;
}

export function defineEntityTagActions(actions: ActionRegistrar, service: () => EntityService): void {
  for (const [action, op] of [
    ['create', 'add'],
    ['delete', 'remove'],
  ] as const)
    actions.define({
      version: 3,
      entity: 'EntityTag',
      action,
      description:
        op === 'add'
          ? 'Tags records: contact_id/entity_id and tag_id (values or lists); answers added, not_added, total_count'
          : 'Removes tags from records (all of its tags without tag_id); answers removed, not_removed, total_count',
      params: { type: 'object' },
      permission: 'public',
      writes: true,
      handler: (params, ctx) => apply(service(), ctx, params as Row, op),
    });
}
