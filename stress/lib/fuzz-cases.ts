// What the fuzz suite's parts share: how many cases each runs, the order they start from, and what
// counts as a typed answer.

export const CASES = Number(process.env.STRESS_FUZZ_CASES ?? 10_000);
/** The order the gateway samples place and the `orders.place` cases start from. */
export const SBIN_LIMIT_BUY = {
  exchange: 'NSE',
  symbol: 'SBIN',
  action: 'BUY',
  quantity: 1,
  pricetype: 'LIMIT',
  price: 700,
  product: 'MIS',
};

/** A typed answer: a value, or an error with a kind (and a message) — never anything else. */
export function typedResult(r: unknown, kinds?: Set<string>): boolean {
  if (typeof r !== 'object' || r === null) return false;
  const { ok, error } = r as { ok?: unknown; error?: { kind?: unknown; message?: unknown } };
  if (ok === true) return true;
  if (ok !== false || typeof error !== 'object' || error === null) return false;
  return (
    typeof error.kind === 'string' && typeof error.message === 'string' && (!kinds || kinds.has(error.kind))
  );
}
