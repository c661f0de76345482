// Exact decimal arithmetic on the shortest round-trip form of a JS number, so that tick checks
// and money comparisons never suffer binary float error (100.05 is 10005 hundredths, exactly).

/** Decimal places in the shortest representation of `x` (1e-7 → 7, 100.05 → 2, 12 → 0). */
export function decimalsOf(x: number): number {
  if (!Number.isFinite(x)) return 0;
  const s = String(Math.abs(x));
  const [mantissa = '', exp = '0'] = s.split('e');
  const dot = mantissa.indexOf('.');
  const fraction = dot < 0 ? 0 : mantissa.length - dot - 1;
  return Math.max(0, fraction - Number(exp));
}

/** `x` as an exact integer count of 10^-places (places ≥ decimalsOf(x)). */
export function toScaled(x: number, places: number): bigint {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  const negative = x < 0;
  const [mantissa = '0', expText = '0'] = String(Math.abs(x)).split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  // mantissa digits scaled by 10^fraction.length, then shifted by the exponent and the target places.
  const shift = places + Number(expText) - fraction.length;
  let value = BigInt(whole + fraction);
  if (shift >= 0) value *= 10n ** BigInt(shift);
  else {
    const divisor = 10n ** BigInt(-shift);
    if (value % divisor !== 0n) throw new RangeError(`${x} has more than ${places} decimal places`);
    value /= divisor;
  }
  return negative ? -value : value;
}

/** True when `price` is a whole number of `tick`s (0.05: 100.05 yes, 100.03 no). */
export function isTickMultiple(price: number, tick: number): boolean {
  if (!Number.isFinite(price) || !Number.isFinite(tick) || tick <= 0) return false;
  const places = Math.max(decimalsOf(price), decimalsOf(tick));
  return toScaled(price, places) % toScaled(tick, places) === 0n;
}

/** Sign of a×b − c, computed exactly (order value against a money limit). */
export function compareProduct(a: number, b: number, c: number): -1 | 0 | 1 {
  const pa = decimalsOf(a);
  const pb = decimalsOf(b);
  const places = Math.max(pa + pb, decimalsOf(c));
  const left = toScaled(a, pa) * toScaled(b, pb) * 10n ** BigInt(places - pa - pb);
  const right = toScaled(c, places);
  return left === right ? 0 : left > right ? 1 : -1;
}
