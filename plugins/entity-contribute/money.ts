/** Exact money arithmetic on decimal strings (scale 2, half away from zero): never floats. */
import { KernelError } from '../../kernel';

const SCALE = 100n;
const PATTERN = /^(-)?(\d*)(?:\.(\d*))?$/;

/** A money value (number or decimal string) as hundredths in a bigint; more than 2 decimals round half up. */
export function toCents(value: unknown, field = 'amount'): bigint {
  const text = typeof value === 'number' ? value.toFixed(6) : String(value ?? '').trim();
  const match = PATTERN.exec(text);
  if (!match || (!match[2] && !match[3]))
    throw new KernelError('E_INVALID_PARAMS', `${field} is not a valid amount: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  const digits = (fraction + '000').slice(0, 3);
  let cents = BigInt(whole || '0') * SCALE + BigInt(digits.slice(0, 2));
  if (Number(digits[2]) >= 5) cents += 1n;
  return sign ? -cents : cents;
}

/** Hundredths as the decimal string the database and both APIs use ('12.30'). */
export function fromCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const fraction = String(abs % SCALE).padStart(2, '0');
  return `${negative ? '-' : ''}${abs / SCALE}.${fraction}`;
}

/** a × b for a quantity and a unit price, rounded to hundredths (half away from zero). */
export function times(qty: unknown, price: unknown): string {
  const product = toCents(qty, 'qty') * toCents(price, 'unit_price');
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + SCALE / 2n) / SCALE;
  return fromCents(negative ? -rounded : rounded);
}

export const sum = (values: unknown[]): string =>
  fromCents(values.reduce<bigint>((acc, value) => acc + toCents(value), 0n));

export const minus = (a: unknown, b: unknown): string => fromCents(toCents(a) - toCents(b));
