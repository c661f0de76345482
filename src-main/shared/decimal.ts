// Exact decimals for both processes: prices, money and quantities arrive as JS numbers or as the
// gateway's decimal text, and are rounded, stepped, compared and multiplied here as scaled integers,
// so 905.3 on a 0.05 tick is 18106 ticks exactly and nothing shows 905.3000000001.

/** `int / 10^scale`. */
export interface Dec {
  readonly int: bigint;
  readonly scale: number;
}

export type Rounding = 'half-up' | 'floor' | 'ceil';

const DECIMAL_TEXT = /^([+-]?)(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?$/;
/** Beyond this many decimals a value is not a price or an amount: refuse rather than allocate. */
const MAX_SCALE = 20;
const MAX_EXPONENT = 30;

/** A number (its shortest round-trip form) or decimal text as an exact decimal; undefined if neither. */
export function parseDecimal(value: number | string): Dec | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  const d = readDecimal(typeof value === 'number' ? String(value) : value.trim(), MAX_EXPONENT);
  return d && d.scale <= MAX_SCALE ? d : undefined;
}

/** Decimal text as an exact decimal, refusing exponents beyond `maxExponent`. */
function readDecimal(text: string, maxExponent: number): Dec | undefined {
  const m = DECIMAL_TEXT.exec(text);
  if (!m) return undefined;
  const [, sign = '', body = '', exp = '0'] = m;
  const [whole = '', fraction = ''] = body.split('.');
  // 1e999999 would be a million-digit bigint: no price, amount or quantity comes near 10^30.
  if (Math.abs(Number(exp)) > maxExponent) return undefined;
  let scale = fraction.length - Number(exp);
  let int = BigInt((whole + fraction).replace(/^0+(?=\d)/, '') || '0');
  if (scale < 0) {
    int *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { int: sign === '-' ? -int : int, scale };
}

/** `d` written with `scale` decimals (scale ≥ d.scale). */
function rescale(d: Dec, scale: number): bigint {
  return d.int * 10n ** BigInt(scale - d.scale);
}

/** Integer quotient n / q (q > 0) rounded as asked. */
function divide(n: bigint, q: bigint, mode: Rounding): bigint {
  const negative = n < 0n;
  const abs = negative ? -n : n;
  let r: bigint;
  if (mode === 'half-up') r = (abs * 2n + q) / (q * 2n);
  else {
    // floor of a negative number rounds away from zero; ceil of it towards zero.
    const up = (mode === 'ceil') !== negative;
    r = abs / q + (up && abs % q !== 0n ? 1n : 0n);
  }
  return negative ? -r : r;
}

export function compareDec(a: Dec, b: Dec): -1 | 0 | 1 {
  const s = Math.max(a.scale, b.scale);
  const x = rescale(a, s);
  const y = rescale(b, s);
  return x === y ? 0 : x > y ? 1 : -1;
}

export function addDec(a: Dec, b: Dec): Dec {
  const s = Math.max(a.scale, b.scale);
  return { int: rescale(a, s) + rescale(b, s), scale: s };
}

export function mulDec(a: Dec, b: Dec): Dec {
  return { int: a.int * b.int, scale: a.scale + b.scale };
}

/** `a / b` rounded to `places` decimals (b non-zero). */
export function divDec(a: Dec, b: Dec, places: number, mode: Rounding = 'half-up'): Dec {
  // a/b = (a.int · 10^b.scale) / (b.int · 10^a.scale); scaled by 10^places before dividing.
  let n = a.int * 10n ** BigInt(b.scale + places);
  let q = b.int * 10n ** BigInt(a.scale);
  if (q < 0n) {
    n = -n;
    q = -q;
  }
  return { int: divide(n, q, mode), scale: places };
}

/** `a` rounded to `places` decimals. */
export function roundDec(a: Dec, places: number, mode: Rounding = 'half-up'): Dec {
  if (a.scale <= places) return { int: rescale(a, places), scale: places };
  return { int: divide(a.int, 10n ** BigInt(a.scale - places), mode), scale: places };
}

/** The multiple of `step` (> 0) nearest `a` in the direction asked. */
export function roundToStep(a: Dec, step: Dec, mode: Rounding = 'half-up'): Dec {
  const s = Math.max(a.scale, step.scale);
  const unit = rescale(step, s);
  return { int: divide(rescale(a, s), unit, mode) * unit, scale: s };
}

/** True when `a` is a whole number of `step`s (step > 0). */
export function isMultipleOf(a: Dec, step: Dec): boolean {
  const s = Math.max(a.scale, step.scale);
  return rescale(a, s) % rescale(step, s) === 0n;
}

/** Decimals a step needs to be written exactly (0.05 → 2, 0.0025 → 4, 1 → 0). */
export function decimalsNeeded(d: Dec): number {
  let { int, scale } = d;
  while (scale > 0 && int % 10n === 0n) {
    int /= 10n;
    scale -= 1;
  }
  return scale;
}

/** Plain text with exactly `places` decimals, rounded as asked: `-1234.50`. */
export function toFixedText(a: Dec, places: number, mode: Rounding = 'half-up'): string {
  const r = roundDec(a, places, mode);
  const negative = r.int < 0n;
  const digits = (negative ? -r.int : r.int).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = places > 0 ? `.${digits.slice(-places)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** The shortest exact text of `a` (trailing zeros dropped): `905.3`. */
export function toPlainText(a: Dec): string {
  return toFixedText(a, decimalsNeeded(a));
}

/** As a JS number, for the wire (prices in requests are numbers; their shortest form is exact). */
export function toNumber(a: Dec): number {
  return Number(toPlainText(a));
}

export const ZERO: Dec = { int: 0n, scale: 0 };
/** A whole number as a decimal (counts, leverage, ±1); a fraction is a caller's bug and throws. */
export const decOf = (n: bigint | number): Dec => ({ int: BigInt(n), scale: 0 });

// ---- plain numbers ----
// The checks and sums of main take JS numbers (zod-validated, finite). A double's shortest form has
// at most 17 digits and an exponent within ±324, so its exact decimal needs no size cap.

/** A finite number as an exact decimal (its shortest round-trip form), whatever its size; throws otherwise. */
export function exactOf(x: number): Dec {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  const d = readDecimal(String(x), Infinity);
  if (!d) throw new RangeError(`not a finite number: ${x}`);
  return d;
}

/** Decimal places in the shortest representation of `x` (1e-7 → 7, 100.05 → 2, 12 → 0). */
export function decimalsOf(x: number): number {
  return Number.isFinite(x) ? exactOf(x).scale : 0;
}

/** `x` as an exact integer count of 10^-places (places ≥ decimalsOf(x)). */
export function toScaled(x: number, places: number): bigint {
  const d = exactOf(x);
  if (d.scale <= places) return rescale(d, places);
  const divisor = 10n ** BigInt(d.scale - places);
  if (d.int % divisor !== 0n) throw new RangeError(`${x} has more than ${places} decimal places`);
  return d.int / divisor;
}

/** True when `price` is a whole number of `tick`s (0.05: 100.05 yes, 100.03 no). */
export function isTickMultiple(price: number, tick: number): boolean {
  if (!Number.isFinite(price) || !Number.isFinite(tick) || tick <= 0) return false;
  return isMultipleOf(exactOf(price), exactOf(tick));
}

/** Sign of a×b − c, computed exactly (order value against a money limit). */
export function compareProduct(a: number, b: number, c: number): -1 | 0 | 1 {
  return compareDec(mulDec(exactOf(a), exactOf(b)), exactOf(c));
}
