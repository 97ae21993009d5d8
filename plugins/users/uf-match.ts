/**
 * UFMatch: the reference's link between a CMS user and a contact, answered from this service's users (uf_id is
 * the user id, uf_name the username). Read-only: users are managed with the `crm user` commands.
 */
import type { Knex } from 'knex';
import type { ActionRegistrar } from '../../kernel';

type Row = Record<string, unknown>;
const FILTERS = ['id', 'uf_id', 'uf_name', 'contact_id', 'domain_id'];

async function matches(db: Knex, filters: Row): Promise<Row[]> {
  const query = db('crm_user').select('id', 'username', 'contact_id').orderBy('id');
  for (const [name, value] of Object.entries(filters)) {
    if (name === 'domain_id') {
      if (Number(value) !== 1) query.whereRaw('false');
    } else if (name === 'uf_name') query.where('username', String(value));
    else if (/^\d+$/.test(String(value))) query.where(name === 'contact_id' ? 'contact_id' : 'id', Number(value));
    else query.whereRaw('false');
  }
  const rows = (await query) as Array<{ id: number; username: string; contact_id: number }>;
  return rows.map((row) => ({
    id: row.id,
    domain_id: 1,
    uf_id: row.id,
    uf_name: row.username,
    contact_id: row.contact_id,
    language: null,
  }));
}

const picked = (params: Row) =>
  Object.fromEntries(FILTERS.filter((name) => params[name] !== undefined).map((name) => [name, params[name]]));

export function defineUfMatchActions(actions: ActionRegistrar): void {
  actions.define({
    version: 3,
    entity: 'UFMatch',
    action: 'get',
    description:
      'User ↔ contact links (uf_id: the user id, uf_name: the username); filters id, uf_id, uf_name, contact_id',
    params: { type: 'object' },
    permission: 'administer CRM',
    handler: async (params, ctx) => {
      const rows = await matches(ctx.db, picked(params as Row));
      const text = (row: Row) =>
        Object.fromEntries(Object.entries(row).map(([name, value]) => [name, value === null ? '' : String(value)]));
      return {
        is_error: 0,
        version: 3,
        count: rows.length,
        ...(rows.length === 1 ? { id: rows[0].id } : {}),
        values: Object.fromEntries(rows.map((row) => [String(row.id), text(row)])),
      };
    },
  });
  actions.define({
    version: 4,
    entity: 'UFMatch',
    action: 'get',
    description: 'User ↔ contact links; where with = on id, uf_id, uf_name, contact_id',
    params: { type: 'object', properties: { where: { type: 'array' }, select: { type: 'array' } } },
    permission: 'administer CRM',
    handler: async (params, ctx) => {
      const where = ((params as { where?: unknown[][] }).where ?? []).filter((clause) => clause[1] === '=');
      return matches(ctx.db, picked(Object.fromEntries(where.map((clause) => [String(clause[0]), clause[2]]))));
    },
  });
}
