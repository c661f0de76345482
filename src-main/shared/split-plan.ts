// How a split order divides its quantity (gateway-behaviour §7.1, spec §4.10): full children of
// `splitsize`, then one remainder child, at most 100 children in all.

export const MAX_SPLIT_ORDERS = 100;
export const TOO_MANY_SPLIT_ORDERS_MESSAGE = `Total number of orders would exceed maximum limit of ${MAX_SPLIT_ORDERS}`;

/** A split that cannot be planned; answered as HTTP 400 with this message. */
export class SplitPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SplitPlanError';
  }
}

/** Child quantities in placement order; the remainder child, if any, is last. Throws SplitPlanError. */
export function planSplit(quantity: number, splitsize: number): number[] {
  // The schema already guarantees both; the checks keep the function total for other callers.
  if (!Number.isInteger(splitsize) || splitsize <= 0)
    throw new SplitPlanError('Split size must be greater than 0');
  if (!Number.isInteger(quantity) || quantity <= 0)
    throw new SplitPlanError('Invalid quantity or split size');

  const full = Math.floor(quantity / splitsize);
  const remainder = quantity % splitsize;
  // Count before allocating: a huge quantity must not build a huge array.
  if (full + (remainder > 0 ? 1 : 0) > MAX_SPLIT_ORDERS)
    throw new SplitPlanError(TOO_MANY_SPLIT_ORDERS_MESSAGE);

  const children: number[] = Array.from({ length: full }, () => splitsize);
  if (remainder > 0) children.push(remainder);
  return children;
}
