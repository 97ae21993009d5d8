/**
 * A pledge's installment schedule, as pure functions: the dates (rounded to the pledge's `frequency_day` in the
 * first period, then every `frequency_interval` units), the amounts (the installment amount, or the total divided
 * and rounded to cents; the last takes what remains) and the pledge status its installments give.
 */
import { fromCents, toCents } from '../entity-contribute';
import { STATUS } from './seed';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const iso = (date: Date) =>
  `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} 00:00:00`;
const utc = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day));
const lastDay = (year: number, month: number) => utc(year, month + 1, 0).getUTCDate();

export interface Frequency {
  unit: string;
  interval: number;
  day: number;
}

/** The scheduled dates ('YYYY-MM-DD 00:00:00') of `count` installments from `start` (an ISO date). */
export function installmentDates(start: string, frequency: Frequency, count: number): string[] {
  const [year, month, day] = start.slice(0, 10).split('-').map(Number);
  const dates: string[] = [];
  for (let i = 0; i < count; i++) {
    const step = i * frequency.interval;
    if (frequency.unit === 'month') {
      // The frequency day of each month (its last day when the month is shorter).
      const target = utc(year, month + step, 1);
      const [ty, tm] = [target.getUTCFullYear(), target.getUTCMonth() + 1];
      dates.push(iso(utc(ty, tm, Math.min(frequency.day, lastDay(ty, tm)))));
    } else if (frequency.unit === 'week') {
      // The frequency day of the week (0 = Sunday) in the start's week.
      const weekday = utc(year, month, day).getUTCDay();
      dates.push(iso(utc(year, month, day + frequency.day - weekday + 7 * step)));
    } else if (frequency.unit === 'year') dates.push(iso(utc(year + step, month, day)));
    else dates.push(iso(utc(year, month, day + step)));
  }
  return dates;
}

/** The total divided by the installments, rounded half up to cents. */
export function installmentAmount(total: unknown, count: number): string {
  const cents = toCents(total, 'amount');
  const n = BigInt(count);
  return fromCents((2n * cents + n) / (2n * n));
}

/** Each installment's amount: the installment amount, the last one the remainder of the total. */
export function installmentAmounts(total: unknown, each: unknown, count: number): string[] {
  const per = toCents(each, 'original_installment_amount');
  const last = toCents(total, 'amount') - per * BigInt(count - 1);
  return Array.from({ length: count }, (_, i) => fromCents(i === count - 1 ? last : per));
}

/** A pledge's status from its installments' statuses: Overdue, Completed (all paid), In Progress, or Pending. */
export function pledgeStatus(paymentStatuses: number[]): number {
  if (paymentStatuses.includes(STATUS.overdue)) return STATUS.overdue;
  if (paymentStatuses.includes(STATUS.completed))
    return paymentStatuses.every((status) => status === STATUS.completed) ? STATUS.completed : STATUS.inProgress;
  return STATUS.pending;
}
