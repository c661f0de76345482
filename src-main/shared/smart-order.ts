// The smart order's decision (gateway-behaviour §6, spec §4.12): compare the target position T with
// the current one C and say which order, if any, brings C to T. Pure, so the paper gateway and the
// desktop client's preview share one implementation.

/** The order side (the contract's Action). */
type Action = 'BUY' | 'SELL';

/** No-op answer when the quantity was 0 (the sandbox's wording, §6). */
export const NO_OPEN_POSITION_MESSAGE = 'No OpenPosition Found. Not placing Exit order.';
/** No-op answer otherwise. */
export const POSITIONS_MATCHED_MESSAGE = 'Positions Already Matched. No Action needed.';

export interface SmartOrderInputs {
  /** A: only matters when target and current are both 0. */
  action: Action;
  /** Q: the order size when target and current are both 0. */
  quantity: number;
  /** T: the signed target position. */
  position_size: number;
  /** C: the signed current net position for (symbol, exchange, product). */
  current: number;
}

export type SmartOrderDecision =
  { kind: 'order'; action: Action; quantity: number } | { kind: 'none'; message: string };

/** Applies the six canonical rules of §6 in order; quantities are whole (fractions truncated, like `int()`). */
export function decideSmartOrder(inputs: SmartOrderInputs): SmartOrderDecision {
  const q = Math.trunc(Math.abs(inputs.quantity));
  const t = Math.trunc(inputs.position_size);
  const c = Math.trunc(inputs.current);

  // Rule 1: a fresh trade, the only case where action and quantity matter.
  if (t === 0 && c === 0 && q !== 0) return { kind: 'order', action: inputs.action, quantity: q };
  // Rule 2 (also covers T = C = Q = 0).
  if (t === c)
    return { kind: 'none', message: q === 0 ? NO_OPEN_POSITION_MESSAGE : POSITIONS_MATCHED_MESSAGE };
  // Rules 3-6 collapse to "trade the difference": T = 0 exits C, C = 0 opens T.
  return t > c
    ? { kind: 'order', action: 'BUY', quantity: t - c }
    : { kind: 'order', action: 'SELL', quantity: c - t };
}

/** The same decision, for the desktop client's preview of what a smart order would do. */
export const previewSmartOrder: (inputs: SmartOrderInputs) => SmartOrderDecision = decideSmartOrder;
