// Exact rupee amounts as fractions: an average-cost realised P&L divides a cost by a quantity
// (100.05 + 100.10 + 100.20 over 3 has no finite decimal), so nothing is rounded until it is shown.
import { exactOf } from '../../shared/decimal.js';

/** n / d rupees, d > 0. */
export interface Money {
  readonly n: bigint;
  readonly d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
};
const norm = (n: bigint, d: bigint): Money => {
  const g = gcd(n, d);
  return { n: n / g, d: d / g };
};

export const ZERO_MONEY: Money = { n: 0n, d: 1n };

/** A price or amount as the exact decimal its shortest form writes. */
export function moneyOf(x: number): Money {
  const e = exactOf(x);
  return norm(e.int, 10n ** BigInt(e.scale));
}

export const add = (a: Money, b: Money): Money => norm(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Money, b: Money): Money => norm(a.n * b.d - b.n * a.d, a.d * b.d);
/** `a` times a whole number (a quantity, a sign). */
export const times = (a: Money, k: number | bigint): Money => norm(a.n * BigInt(k), a.d);
/** `a` divided by a whole number other than 0. */
export const over = (a: Money, k: number | bigint): Money => {
  const q = BigInt(k);
  return q < 0n ? norm(-a.n, a.d * -q) : norm(a.n, a.d * q);
};
export const compare = (a: Money, b: Money): -1 | 0 | 1 => {
  const x = a.n * b.d;
  const y = b.n * a.d;
  return x === y ? 0 : x > y ? 1 : -1;
};

/** Whole paise, rounded half away from zero: for display and tests, never for sums. */
export function toPaise(a: Money): bigint {
  const neg = a.n < 0n;
  const abs = (neg ? -a.n : a.n) * 100n;
  const r = (abs * 2n + a.d) / (a.d * 2n);
  return neg ? -r : r;
}

/** Rupee text with 2 decimals (`-1234.50`), rounded to the paisa for display. */
export function rupeeText(a: Money): string {
  const p = toPaise(a);
  const neg = p < 0n;
  const digits = (neg ? -p : p).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
