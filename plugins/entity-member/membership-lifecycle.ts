/**
 * Membership behaviour, in the write's transaction: dates from the type when omitted (and `num_terms` renewals),
 * the status from the rules unless `skipStatusCal` or `is_override`, and a Pending membership brought to life
 * when the contribution paying for it completes (`contribute.completed`).
 */
import { KernelError } from '../../kernel';
import { present, truthy, type Entities, type EntityRegistry, type SaveContext } from '../entity-core';
import { isoDate, membershipDates, renewalDates, statusFor, today, type MemberDates } from './dates';

type Row = Record<string, unknown>;
const DATE_FIELDS = ['join_date', 'start_date', 'end_date'] as const;

export async function membershipType(entities: Entities, typeId: unknown): Promise<Row> {
  const [type] = present(typeId)
    ? await entities.get('MembershipType', { where: { id: Number(typeId) }, limit: 1 })
    : [];
  if (!type) throw new KernelError('E_INVALID_PARAMS', `Membership type ${String(typeId)} not found`);
  return type;
}

/** The rules a calculation uses: active, not for administrators only, by weight. */
export const statusRules = (entities: Entities): Promise<Row[]> =>
  entities.get('MembershipStatus', {
    where: { is_active: true, is_admin: false },
    orderBy: [
      { path: 'weight', dir: 'ASC' },
      { path: 'id', dir: 'ASC' },
    ],
  });

function termsOf(params: Row): number | undefined {
  if (!present(params.num_terms)) return undefined;
  const terms = Number(params.num_terms);
  if (!Number.isInteger(terms) || terms < 1)
    throw new KernelError('E_INVALID_PARAMS', 'num_terms must be a positive integer');
  return terms;
}

const datesOf = (row: Row): MemberDates => ({
  join_date: isoDate(row.join_date, 'join_date'),
  start_date: isoDate(row.start_date, 'start_date'),
  end_date: isoDate(row.end_date, 'end_date'),
});

async function beforeSave(values: Row, sc: SaveContext): Promise<Row> {
  const out: Row = { ...values };
  for (const field of DATE_FIELDS) if (present(out[field])) out[field] = isoDate(out[field], field);
  const creating = !sc.existing;
  const terms = termsOf(sc.params);
  if (creating || terms) {
    const type = await membershipType(sc.entities, out.membership_type_id ?? sc.existing?.membership_type_id);
    let calculated: MemberDates;
    if (creating) calculated = membershipDates(type, datesOf(out), terms ?? 1);
    else {
      const [status] = await sc.entities.get('MembershipStatus', { where: { id: sc.existing!.status_id }, limit: 1 });
      calculated = renewalDates(type, sc.existing!, truthy(status?.is_current_member), terms!);
    }
    for (const field of DATE_FIELDS) if (!present(out[field]) && calculated[field]) out[field] = calculated[field];
  }
  // The reference calculates on create only, unless the caller says otherwise (skipStatusCal=0 on update).
  const skip = present(sc.params.skipStatusCal) ? truthy(sc.params.skipStatusCal) : !creating;
  const override = truthy(out.is_override ?? sc.existing?.is_override);
  if (creating && override && !present(out.status_id)) throw new KernelError('E_INVALID_PARAMS', 'Status ID required');
  if (!skip && !override) {
    const dates = datesOf({ ...sc.existing, ...out });
    const status = statusFor(await statusRules(sc.entities), dates, today());
    if (!status)
      throw new KernelError(
        'E_INVALID_PARAMS',
        'The membership can not be saved, no valid membership status for given dates',
        { details: { ...dates } },
      );
    out.status_id = status.id;
  }
  if (creating && !present(out.status_id))
    throw new KernelError(
      'E_INVALID_PARAMS',
      'status_id is required when the status is not calculated (skipStatusCal)',
    );
  return out;
}

/**
 * A completed contribution paying for memberships (MembershipPayment), as the reference's order completion does:
 * a Pending membership starts on the day the money came in (its join date kept); any other one is renewed by
 * the terms the contribution paid for (its line item's `membership_num_terms`, else 1) — a current one's end date
 * moves on, an expired one starts a new term that day — and its status override is lifted. Either way it takes
 * the status its new dates give.
 */
export async function completeMemberships(contribution: Row, entities: Entities): Promise<void> {
  const links = await entities.get('MembershipPayment', { where: { contribution_id: contribution.id } });
  if (!links.length) return;
  const rules = await statusRules(entities);
  const paidOn = isoDate(contribution.receive_date) ?? today();
  for (const link of links) {
    const [membership] = await entities.get('Membership', { where: { id: link.membership_id }, limit: 1 });
    if (!membership) continue;
    const [stored] = await entities.get('MembershipStatus', { where: { id: membership.status_id } });
    const type = await membershipType(entities, membership.membership_type_id);
    let dates: MemberDates;
    if (stored?.name === 'Pending') dates = renewalDates(type, { ...membership, end_date: null }, false, 1, paidOn);
    else {
      // Current or not as its dates say on the day paid (a status not yet updated by the daily job counts as it is).
      const byDates = statusFor(rules, datesOf(membership), paidOn) ?? stored;
      const terms = await termsPaid(entities, contribution, membership);
      dates = renewalDates(type, membership, truthy(byDates?.is_current_member), terms, paidOn);
    }
    const status = statusFor(rules, dates, today());
    await entities.save('Membership', {
      id: membership.id,
      ...dates,
      ...(status ? { status_id: status.id } : {}),
      ...(stored?.name === 'Pending' ? {} : { is_override: false, status_override_end_date: null }),
    });
  }
}

/** The terms a contribution paid for a membership: `membership_num_terms` of its line item for it, else 1. */
async function termsPaid(entities: Entities, contribution: Row, membership: Row): Promise<number> {
  const [item] = await entities.get('LineItem', {
    where: [
      { path: 'contribution_id', op: '=', value: contribution.id },
      // Either spelling a line's dynamic reference takes: the reference's table name, or ours.
      { path: 'entity_table', op: 'IN', value: ['civicrm_membership', 'crm_membership'] },
      { path: 'entity_id', op: '=', value: membership.id },
    ],
    select: ['membership_num_terms'],
  });
  const terms = Number(item?.membership_num_terms);
  return Number.isInteger(terms) && terms > 0 ? terms : 1;
}

const LOGGED = ['status_id', 'start_date', 'end_date', 'membership_type_id'];

/** A MembershipLog row for a signup, and for each update that changes the status, the dates or the type. */
async function afterSave(row: Row, sc: SaveContext): Promise<void> {
  const before = sc.existing;
  const same = (field: string) => String(isoDateOr(before?.[field])) === String(isoDateOr(row[field]));
  if (before && LOGGED.every(same)) return;
  await sc.entities.save('MembershipLog', {
    membership_id: row.id,
    status_id: row.status_id,
    start_date: row.start_date,
    end_date: row.end_date,
    membership_type_id: row.membership_type_id,
    max_related: row.max_related,
    modified_id: sc.principal.contactId ?? null,
    modified_date: today(),
  });
}

const isoDateOr = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : (value ?? null));

export function extendMemberships(entities: EntityRegistry): void {
  entities.extend('Membership', { params: ['skipStatusCal', 'num_terms'], beforeSave, afterSave });
  entities.extend('MembershipType', {
    beforeSave: (values, sc) => {
      const name = values.name ?? sc.existing?.name;
      const out = { ...values };
      if (!present(out.title ?? sc.existing?.title)) out.title = name;
      if (!present(out.frontend_title ?? sc.existing?.frontend_title)) out.frontend_title = out.title ?? name;
      return out;
    },
  });
}
