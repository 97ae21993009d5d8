/** Planned conditions turned into knex calls (the planner resolves them; this applies them). */
import type { Knex } from 'knex';
import type { Planned } from './planner';
import { KernelError } from '../../kernel';
import type { FieldDef } from './types';
import { applyFilter } from './sql-filters';

/** Adds one planned condition to a query (AND-ed with what is there). */
export function applyPlanned(qb: Knex.QueryBuilder, planned: Planned): void {
  if (planned.kind === 'filter') return applyFilter(qb, planned.resolved.ref, planned.resolved.field, planned.filter);
  if (planned.kind === 'exists') {
    qb.whereExists(function (this: Knex.QueryBuilder) {
      planned.planner.from(this);
      if (planned.inner && planned.outer) this.whereRaw('?? = ??', [planned.inner, planned.outer]);
      for (const item of planned.where) applyPlanned(this, item);
    });
    return;
  }
  const items = planned.items;
  if (planned.kind === 'not') {
    qb.whereNot((sub) => {
      for (const item of items) applyPlanned(sub, item);
    });
    return;
  }
  if (!items.length) {
    // An empty OR matches nothing, an empty AND everything (as APIv4 does).
    if (planned.kind === 'or') qb.whereRaw('false');
    return;
  }
  if (planned.kind === 'and') {
    qb.where((sub) => {
      for (const item of items) applyPlanned(sub, item);
    });
    return;
  }
  qb.where((sub) => {
    for (const item of items) sub.orWhere((alternative) => applyPlanned(alternative, item));
  });
}

/** Ciphertext never equals the value (a fresh IV each time): a filter on an encrypted field could only match nothing. */
export function refuseEncrypted(field: FieldDef, path: string): void {
  if (field.encrypted)
    throw new KernelError('E_INVALID_PARAMS', `${path} is stored encrypted and cannot be used in a filter`, {
      details: { error_code: 0, error_field: path },
    });
}
