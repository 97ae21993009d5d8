/**
 * Membership date and status arithmetic, as pure functions on ISO dates ('YYYY-MM-DD'): the dates of a new
 * membership from its type (rolling or fixed periods, rollover), a renewal's dates, and the status the rules
 * give a membership's dates on a day. Day overflow behaves as the reference's (31 Jan + 1 month = 3 Mar).
 */
import { KernelError } from '../../kernel';

type Row = Record<string, unknown>;
export interface MemberDates {
  join_date: string | null;
  start_date: string | null;
  end_date: string | null;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The ISO date of year, month, day, with overflow carried (month 13 is January next year, day 0 the last). */
export function ymd(year: number, month: number, day: number): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

const parts = (iso: string): [number, number, number] => {
  const [year, month, day] = iso.split('-').map(Number);
  return [year, month, day];
};

/** Today in UTC. */
export const today = (): string => new Date().toISOString().slice(0, 10);

/** A date as the API takes it ('2026-01-31', '20260131', '2026-01-31 10:00:00', a Date) → ISO, or null when empty. */
export function isoDate(value: unknown, field = 'date'): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const text = String(value).trim();
  const match = /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T]?\d{2}:?\d{2}(?::?\d{2})?.*)?$/.exec(text);
  if (match) {
    const iso = `${match[1]}-${match[2]}-${match[3]}`;
    if (ymd(...parts(iso)) === iso) return iso;
  }
  throw new KernelError('E_INVALID_PARAMS', `${field} is not a valid date: ${text}`);
}

/** Adds `count` units (day, week, month, year) to an ISO date, with the reference's overflow. */
export function addUnits(iso: string, unit: string, count: number): string {
  const [year, month, day] = parts(iso);
  if (unit === 'year') return ymd(year + count, month, day);
  if (unit === 'month') return ymd(year, month + count, day);
  if (unit === 'week') return ymd(year, month, day + 7 * count);
  return ymd(year, month, day + count);
}

/** mmdd as stored (101, 1231) → [month, day]. */
const monthDay = (mmdd: unknown): [number, number] | null => {
  if (mmdd === null || mmdd === undefined || mmdd === '') return null;
  const value = Number(mmdd);
  return Number.isInteger(value) && value > 0 ? [Math.floor(value / 100), value % 100] : null;
};

/** Whether a fixed annual membership joining on `join` falls in the rollover window (and gets an extra period). */
function inAnnualRollover(join: string, type: Row, year: number, periodStart: string): boolean {
  const rollover = monthDay(type.fixed_period_rollover_day);
  if (!rollover) return false;
  let rolloverDate = ymd(year, rollover[0], rollover[1]);
  const [startYear, startMonth, startDay] = parts(periodStart);
  if (ymd(startYear + 1, startMonth, startDay - 1) < rolloverDate)
    rolloverDate = ymd(year - 1, rollover[0], rollover[1]);
  if (rolloverDate < periodStart) rolloverDate = ymd(year + 1, rollover[0], rollover[1]);
  return rolloverDate <= join;
}

/**
 * The dates of a new membership of `type` (dates given are kept): join defaults to today; a rolling period
 * starts at the join date; a fixed annual one at the last `fixed_period_start_day`, a fixed monthly one on
 * the 1st; the end is `terms` × `duration_interval` units later, less a day (none for lifetime), one more
 * unit when joining in the rollover window.
 */
export function membershipDates(type: Row, given: Partial<MemberDates>, terms: number, now = today()): MemberDates {
  const join = given.join_date ?? now;
  let start = given.start_date ?? null;
  let periodStart = start ?? join;
  let rollover = false;
  if (type.period_type === 'rolling') {
    start = start ?? join;
    periodStart = start;
  } else if (type.period_type === 'fixed') {
    const [year, month] = parts(start ?? join);
    if (type.duration_unit === 'year') {
      const fixed = monthDay(type.fixed_period_start_day) ?? [1, 1];
      const thisYear = ymd(year, fixed[0], fixed[1]);
      periodStart = thisYear <= (start ?? join) ? thisYear : ymd(year - 1, fixed[0], fixed[1]);
      rollover = inAnnualRollover(join, type, year, periodStart);
      start = start ?? periodStart;
    } else if (type.duration_unit === 'month') {
      const rolloverDay = Number(type.fixed_period_rollover_day);
      if (type.fixed_period_rollover_day != null && parts(periodStart)[2] >= rolloverDay) rollover = true;
      if (!start) periodStart = start = ymd(year, month, 1);
    }
  }
  let end = given.end_date ?? null;
  if (!end && type.duration_unit !== 'lifetime') {
    const units = terms * Number(type.duration_interval ?? 1) + (rollover ? 1 : 0);
    end = addUnits(addUnits(periodStart, String(type.duration_unit), units), 'day', -1);
  }
  return { join_date: join, start_date: start, end_date: end };
}

/**
 * A renewal's dates (`num_terms` on an existing membership): a current membership keeps its start and its end
 * moves on by the terms; any other starts again today (keeping its join date).
 */
export function renewalDates(
  type: Row,
  membership: Row,
  isCurrent: boolean,
  terms: number,
  now = today(),
): MemberDates {
  const join = isoDate(membership.join_date);
  if (isCurrent) {
    const end = isoDate(membership.end_date) ?? now;
    const units = terms * Number(type.duration_interval ?? 1);
    let newEnd: string | null = null;
    if (type.duration_unit === 'month') newEnd = addUnits(addUnits(addUnits(end, 'day', 1), 'month', units), 'day', -1);
    else if (type.duration_unit !== 'lifetime') newEnd = addUnits(end, String(type.duration_unit), units);
    const start = isoDate(membership.start_date);
    return { join_date: join ?? start, start_date: start, end_date: newEnd };
  }
  const fresh = membershipDates(type, { join_date: now }, terms, now);
  return { ...fresh, join_date: join ?? (type.period_type === 'fixed' ? fresh.join_date : fresh.start_date) };
}

/** The date a status rule's event falls on for these dates (its adjustment added), or null. */
function eventDate(rule: Row, which: 'start' | 'end', dates: MemberDates): string | null {
  const event = rule[`${which}_event`];
  if (event !== 'join_date' && event !== 'start_date' && event !== 'end_date') return null;
  const base = dates[event];
  if (!base) return null;
  const unit = rule[`${which}_event_adjust_unit`];
  const interval = Number(rule[`${which}_event_adjust_interval`] ?? 0);
  return unit && interval ? addUnits(base, String(unit), interval) : base;
}

/**
 * The first rule (by weight) whose window holds `on`: from its start event to its end event, either open
 * when absent; rules with neither event never match.
 */
export function statusFor<T extends Row>(rules: T[], dates: MemberDates, on = today()): T | undefined {
  for (const rule of rules) {
    const from = eventDate(rule, 'start', dates);
    const to = eventDate(rule, 'end', dates);
    if (from && to ? on >= from && on <= to : from ? on >= from : to ? on <= to : false) return rule;
  }
  return undefined;
}
