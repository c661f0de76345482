// Order statuses as the order book states them (gateway-behaviour §7: open, trigger pending,
// complete, cancelled, rejected), grouped for the Orders pane's filter chips.

export const ORDER_FILTERS = ['all', 'open', 'trigger', 'complete', 'rejected', 'cancelled'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

export const ORDER_FILTER_LABELS: Readonly<Record<OrderFilter, string>> = {
  all: 'All',
  open: 'Open',
  trigger: 'Trigger pending',
  complete: 'Complete',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

/** The filter an order's status belongs to; undefined for a status no filter names (unknown). */
export function orderFilterOf(status: string): Exclude<OrderFilter, 'all'> | undefined {
  switch (status.trim().toLowerCase()) {
    case 'open':
      return 'open';
    case 'trigger pending':
    case 'trigger_pending':
      return 'trigger';
    case 'complete':
    case 'completed':
      return 'complete';
    case 'rejected':
      return 'rejected';
    case 'cancelled':
    case 'canceled':
      return 'cancelled';
    default:
      return undefined;
  }
}

export function matchesFilter(status: string, filter: OrderFilter): boolean {
  return filter === 'all' || orderFilterOf(status) === filter;
}

/** Working orders: still able to fill, so modify and cancel apply. */
export function isWorking(status: string): boolean {
  const f = orderFilterOf(status);
  return f === 'open' || f === 'trigger';
}

const SHORT_TYPES: Readonly<Record<string, string>> = {
  MARKET: 'MKT',
  LIMIT: 'LMT',
  SL: 'SL',
  'SL-M': 'SL-M',
};

/** The price type as the ticket's buttons name it (MKT, LMT, SL, SL-M); others as given. */
export function shortPriceType(pricetype: string): string {
  return SHORT_TYPES[pricetype.toUpperCase()] ?? pricetype;
}
