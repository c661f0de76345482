// Net-position arithmetic on integers (units of ₹0.0001). A position is (signed quantity, signed
// cost of the open leg, realised P&L). The ledger invariant it keeps: for every position,
// Σ trade cash flows (−signed qty × price) = realised − cost.

export interface PositionState {
  quantity: number;
  cost: number;
  realised: number;
}

/** Applies a fill of signed `qty` at `price` units: extends, reduces, closes or reverses. */
export function applyFill(pos: PositionState, qty: number, price: number): PositionState {
  let { quantity, cost, realised } = pos;
  let rest = qty;
  if (quantity !== 0 && Math.sign(quantity) !== Math.sign(qty)) {
    const closing = Math.min(Math.abs(qty), Math.abs(quantity));
    const removed = closing === Math.abs(quantity) ? cost : Math.round((cost * closing) / Math.abs(quantity));
    const signedClosing = Math.sign(qty) * closing;
    realised += -signedClosing * price - removed;
    cost -= removed;
    quantity += signedClosing;
    rest -= signedClosing;
  }
  if (rest !== 0) {
    quantity += rest;
    cost += rest * price;
  }
  return { quantity, cost, realised };
}

/**
 * Sells `qty` (> 0) settled shares at `price` from a holding of (quantity, cost): the cost removed
 * pro rata and the P&L realised.
 */
export function sellFromHolding(
  holding: { quantity: number; cost: number },
  qty: number,
  price: number,
): { quantity: number; cost: number; realised: number } {
  const removed =
    qty === holding.quantity ? holding.cost : Math.round((holding.cost * qty) / holding.quantity);
  return { quantity: holding.quantity - qty, cost: holding.cost - removed, realised: qty * price - removed };
}

/** Average price (units, fractional) of an open leg; 0 when flat. */
export function averagePrice(quantity: number, cost: number): number {
  return quantity === 0 ? 0 : cost / quantity;
}
