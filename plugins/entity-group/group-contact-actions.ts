/**
 * The reference's non-standard APIv3 GroupContact.create and .delete: contact_id and group_id may each be a
 * list (4.7.0) or come as `contact_id.1`, `group_id.2`… (deprecated); the answer carries counts, not rows.
 */
import type { ActionContext, ActionRegistrar } from '../../kernel';
import { invalid, mandatoryMissing } from '../api3';
import type { Entities, EntityService } from '../entity-core';

type Params = Record<string, unknown>;
const STATUSES = ['Added', 'Removed', 'Pending'];
const PERMISSION = { allOf: ['access CRM', 'edit all contacts'] };

/** Every id under `contact_id`, `contact_id.N` (or the group equivalents), lists flattened. */
export function idsOf(params: Params, field: string): number[] {
  const ids: number[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (key !== field && !key.startsWith(`${field}.`)) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === '' || item === null || item === undefined) continue;
      const id = Number(item);
      if (!Number.isInteger(id) || id <= 0) throw invalid(`${field} is not a valid integer`);
      ids.push(id);
    }
  }
  return [...new Set(ids)];
}

/** One membership to `status` ('Deleted' deletes the row); whether anything changed. */
async function setStatus(entities: Entities, groupId: number, contactId: number, status: string): Promise<boolean> {
  const [row] = await entities.get('GroupContact', { where: { group_id: groupId, contact_id: contactId } });
  if (status === 'Deleted') {
    if (row) await entities.delete('GroupContact', Number(row.id));
    return !!row;
  }
  if (row?.status === status) return false;
  // Removing a contact who is not a member records the opt-out (it keeps them out of a smart group).
  if (!row) await entities.save('GroupContact', { group_id: groupId, contact_id: contactId, status });
  else await entities.save('GroupContact', { id: row.id, status });
  return true;
}

/** Sets the status of each contact in each group; counts as the reference does. */
async function apply(entities: Entities, params: Params, status: string): Promise<Record<string, number>> {
  const contacts = idsOf(params, 'contact_id');
  const groups = idsOf(params, 'group_id');
  const missing = [...(contacts.length ? [] : ['contact_id']), ...(groups.length ? [] : ['group_id'])];
  if (missing.length) throw mandatoryMissing(missing);
  let changed = 0;
  for (const groupId of groups) {
    if (!(await entities.count('Group', { id: groupId }))) throw invalid(`Group ${groupId} not found`);
    for (const contactId of contacts) {
      changed += (await setStatus(entities, groupId, contactId, status)) ? 1 : 0;
    }
  }
  const total = contacts.length * groups.length;
  const adding = status === 'Added' || status === 'Pending';
  return adding
    ? { total_count: total, added: changed, not_added: total - changed }
    : { total_count: total, removed: changed, not_removed: total - changed };
}

function success(counts: Record<string, number>) {
  return { is_error: 0, version: 3, count: 1, values: 1, ...counts };
}

export function defineGroupContactActions(actions: ActionRegistrar, service: () => EntityService): void {
  const bound = (ctx: ActionContext) =>
    service().bind({ db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: true });
  /** `id` stands for its row's group and contact (the reference converts it the same way). */
  async function withId(entities: Entities, params: Params): Promise<Params> {
    if (params.id === undefined || params.id === '') return params;
    const [row] = await entities.get('GroupContact', { where: { id: Number(params.id) } });
    if (!row) throw invalid(`GroupContact ${String(params.id)} not found`);
    return { ...params, group_id: row.group_id, contact_id: row.contact_id };
  }
  const schema = { type: 'object', additionalProperties: true };

  actions.define({
    version: 3,
    entity: 'GroupContact',
    action: 'create',
    description: 'Adds contacts to groups (lists of contact_id / group_id); answers added, not_added, total_count',
    params: schema,
    permission: PERMISSION,
    writes: true,
    async handler(params: Params, ctx: ActionContext) {
      const status = String(params.status ?? 'Added');
      if (!STATUSES.includes(status)) throw invalid(`'${status}' is not a valid option for field status`);
      const entities = bound(ctx);
      return success(await apply(entities, await withId(entities, params), status));
    },
  });

  actions.define({
    version: 3,
    entity: 'GroupContact',
    action: 'delete',
    description: 'Removes contacts from groups (status Removed; skip_undelete deletes the rows); deprecated',
    params: schema,
    permission: PERMISSION,
    writes: true,
    async handler(params: Params, ctx: ActionContext) {
      const entities = bound(ctx);
      const full = await withId(entities, params);
      const skip = [1, '1', true, 'true'].includes(full.skip_undelete as never);
      const contacts = idsOf(full, 'contact_id');
      const groups = idsOf(full, 'group_id');
      const where = [
        ...(contacts.length ? [{ path: 'contact_id', op: 'IN' as const, value: contacts }] : []),
        ...(groups.length ? [{ path: 'group_id', op: 'IN' as const, value: groups }] : []),
        { path: 'status', op: 'IN' as const, value: skip ? STATUSES : ['Added', 'Pending'] },
      ];
      if (!(await entities.count('GroupContact', where))) throw invalid('Cannot Delete GroupContact');
      const status = typeof full.status === 'string' ? full.status : skip ? 'Deleted' : 'Removed';
      return success(await apply(entities, full, status));
    },
  });
}
