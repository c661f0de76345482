// Order rows and snapshots the watcher-*.test.ts files build their cases from.
import type { OrderRecord, OrderSnapshot } from '../../../src-main/contract/index.js';
import { toSnapshot } from '../../../src-main/core/watcher/index.js';

export function row(over: Partial<OrderRecord> = {}): OrderRecord {
  return {
    action: 'BUY',
    exchange: 'NSE',
    order_status: 'open',
    orderid: '1',
    price: 812.35,
    pricetype: 'LIMIT',
    product: 'MIS',
    quantity: 1500,
    symbol: 'SBIN',
    timestamp: '20-Nov-2026 10:00:00',
    trigger_price: 0,
    filled_quantity: 0,
    average_price: 0,
    ...over,
  };
}
export const snap = (over: Partial<OrderRecord> = {}): OrderSnapshot => toSnapshot(row(over));
export const types = (changes: { type: string }[]) => changes.map((c) => c.type);
