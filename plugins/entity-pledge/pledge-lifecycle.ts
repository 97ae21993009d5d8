/**
 * Pledge behaviour, in the write's transaction: the installment schedule on create, payments recorded against
 * installments (a create without `id` pays the oldest unpaid one), the pledge's status after every change, and
 * installments completed with their contribution (`contribute.completed`).
 */
import { KernelError } from '../../kernel';
import { present, truthy, type Entities, type EntityRegistry, type SaveContext } from '../entity-core';
import { installmentAmount, installmentAmounts, installmentDates, pledgeStatus } from './schedule';
import { STATUS } from './seed';

type Row = Record<string, unknown>;
const SCHEDULING = '_pledge_schedule';

/** A date or timestamp as the API takes it → 'YYYY-MM-DD'. */
function dayOf(value: unknown, field: string): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const match = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(String(value ?? '').trim());
  if (!match || Number.isNaN(Date.parse(`${match[1]}-${match[2]}-${match[3]}`)))
    throw new KernelError('E_INVALID_PARAMS', `${field} is not a valid date: ${String(value)}`);
  return `${match[1]}-${match[2]}-${match[3]}`;
}

function positive(value: unknown, field: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new KernelError('E_INVALID_PARAMS', `${field} must be a positive integer`);
  return number;
}

/** What a pending pledge's edit may change that its schedule depends on (the reference's list). */
const SCHEDULE_FIELDS = [
  'amount',
  'frequency_unit',
  'frequency_interval',
  'frequency_day',
  'installments',
  'start_date',
];

/** An edit with `is_pledge_pending` that changes the schedule's inputs: its installments are made again. */
function reschedules(sc: SaveContext, row: Row): boolean {
  if (!sc.existing || !truthy(sc.params.is_pledge_pending)) return false;
  const text = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value ?? ''));
  return SCHEDULE_FIELDS.some((field) =>
    field === 'start_date'
      ? dayOf(row[field], field) !== dayOf(sc.existing![field], field)
      : field === 'amount'
        ? Number(row[field]) !== Number(sc.existing![field])
        : text(row[field]) !== text(sc.existing![field]),
  );
}

function beforeSavePledge(values: Row, sc: SaveContext): Row {
  const out: Row = { ...values, modified_date: new Date() };
  if (sc.existing) {
    // A pending pledge's new amount or installments: the installment amount follows, unless given.
    const merged = { ...sc.existing, ...out };
    if (reschedules(sc, merged) && !present(values.original_installment_amount))
      out.original_installment_amount = installmentAmount(merged.amount, positive(merged.installments, 'installments'));
    return out;
  }
  const installments = positive(out.installments ?? 1, 'installments');
  positive(out.frequency_interval ?? 1, 'frequency_interval');
  if (present(out.start_date)) dayOf(out.start_date, 'start_date');
  if (present(out.amount) && !present(out.original_installment_amount))
    out.original_installment_amount = installmentAmount(out.amount, installments);
  return out;
}

/**
 * The schedule of a new pledge: one Pending (or Overdue, when already due) installment per period. An edit of a
 * pending pledge with `is_pledge_pending` that changes the amount, frequency, installments or start date makes the
 * schedule again, as the reference does (a pledge with a completed installment is refused instead).
 */
async function afterSavePledge(row: Row, sc: SaveContext): Promise<void> {
  if (sc.existing) {
    if (!reschedules(sc, row)) return;
    const payments = await sc.entities.get('PledgePayment', {
      where: { pledge_id: row.id },
      select: ['id', 'status_id'],
    });
    if (payments.some((payment) => Number(payment.status_id) === STATUS.completed))
      throw new KernelError('E_INVALID_PARAMS', 'The pledge has completed payments: its schedule cannot be made again');
    for (const payment of payments) await sc.entities.delete('PledgePayment', Number(payment.id));
  }
  const count = Number(row.installments);
  const dates = installmentDates(
    dayOf(row.start_date, 'start_date'),
    { unit: String(row.frequency_unit), interval: Number(row.frequency_interval), day: Number(row.frequency_day) },
    count,
  );
  const amounts = installmentAmounts(row.amount, row.original_installment_amount, count);
  const today = new Date().toISOString().slice(0, 10);
  for (let i = 0; i < count; i++)
    await sc.entities.save('PledgePayment', {
      pledge_id: row.id,
      scheduled_date: dates[i],
      scheduled_amount: amounts[i],
      currency: row.currency,
      status_id: dates[i].slice(0, 10) < today ? STATUS.overdue : STATUS.pending,
      [SCHEDULING]: true,
    });
  await refreshPledge(sc.entities, row.id);
}

/** The pledge's status from its installments (a cancelled pledge stays cancelled); completed → its end date. */
export async function refreshPledge(entities: Entities, pledgeId: unknown): Promise<void> {
  const [pledge] = await entities.get('Pledge', { where: { id: pledgeId }, limit: 1 });
  if (!pledge || Number(pledge.status_id) === STATUS.cancelled) return;
  const payments = await entities.get('PledgePayment', { where: { pledge_id: pledgeId }, select: ['status_id'] });
  const status = pledgeStatus(payments.map((payment) => Number(payment.status_id)));
  if (status === Number(pledge.status_id)) return;
  await entities.save('Pledge', {
    id: pledge.id,
    status_id: status,
    ...(status === STATUS.completed ? { end_date: new Date() } : {}),
  });
}

/** Takes the oldest unpaid installment's place (its schedule) for a payment recorded without an id. */
async function matchInstallment(values: Row, sc: SaveContext): Promise<Row> {
  const [oldest] = await sc.entities.get('PledgePayment', {
    where: [
      { path: 'pledge_id', op: '=', value: values.pledge_id },
      { path: 'status_id', op: 'IN', value: [STATUS.pending, STATUS.overdue] },
    ],
    orderBy: [
      { path: 'scheduled_date', dir: 'ASC' },
      { path: 'id', dir: 'ASC' },
    ],
    limit: 1,
  });
  if (!oldest)
    throw new KernelError(
      'E_INVALID_PARAMS',
      'There are no unmatched payment on this pledge. Pass in the pledge_payment id to specify one',
    );
  await sc.entities.delete('PledgePayment', Number(oldest.id));
  const { scheduled_date, scheduled_amount, currency, reminder_date, reminder_count } = oldest;
  return { scheduled_date, scheduled_amount, currency, reminder_date, reminder_count, ...values };
}

async function beforeSavePayment(values: Row, sc: SaveContext): Promise<Row> {
  let out: Row = { ...values };
  if (!sc.existing && !sc.params[SCHEDULING] && present(out.pledge_id) && !present(out.scheduled_date))
    out = await matchInstallment(out, sc);
  // Paid by a completed contribution: the installment is completed, for the contribution's amount unless given.
  if (present(out.contribution_id) && !present(values.status_id)) {
    const [paid] = await sc.entities.get('Contribution', { where: { id: out.contribution_id }, limit: 1 });
    if (!paid) throw new KernelError('E_INVALID_PARAMS', `Contribution ${String(out.contribution_id)} not found`);
    if (Number(paid.contribution_status_id) === STATUS.completed) {
      out.status_id = STATUS.completed;
      if (!present(out.actual_amount ?? sc.existing?.actual_amount)) out.actual_amount = paid.total_amount;
    }
  }
  if (!sc.existing && !present(out.status_id)) out.status_id = STATUS.pending;
  return out;
}

/** Installments paid by a contribution that has just completed. */
export async function completeInstallments(contribution: Row, entities: Entities): Promise<void> {
  const payments = await entities.get('PledgePayment', { where: { contribution_id: contribution.id } });
  for (const payment of payments)
    if (Number(payment.status_id) !== STATUS.completed)
      await entities.save('PledgePayment', {
        id: payment.id,
        status_id: STATUS.completed,
        actual_amount: present(payment.actual_amount) ? payment.actual_amount : contribution.total_amount,
      });
}

export function extendPledges(entities: EntityRegistry): void {
  entities.extend('Pledge', {
    params: ['is_pledge_pending'],
    beforeSave: beforeSavePledge,
    afterSave: afterSavePledge,
  });
  entities.extend('PledgePayment', {
    // The marker its own schedule writes with: those installments are the pledge's, not payments to match.
    params: [SCHEDULING],
    beforeSave: beforeSavePayment,
    afterSave: (row, sc) => (sc.params[SCHEDULING] ? undefined : refreshPledge(sc.entities, row.pledge_id)),
    afterDelete: (row, sc) => refreshPledge(sc.entities, row.pledge_id),
  });
}
