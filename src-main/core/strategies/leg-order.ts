// The order a strategy's legs go in: BUY legs first (their margin hedges the shorts that follow),
// then SELL legs, each side in the order the trader built them.
export function sendOrder<L extends { action: string }>(legs: readonly L[]): number[] {
  const idx = legs.map((_, i) => i);
  return [...idx.filter((i) => legs[i]!.action === 'BUY'), ...idx.filter((i) => legs[i]!.action !== 'BUY')];
}
