// A gateway-refused order that the gateway also records as rejected (paper does, with an order id)
// is one entry in Alerts: the core's rejection replaces the desk's own "refused" entry when it comes
// for the same symbol, side and quantity within a few seconds (or the same order id), in either order.
import { describe, expect, it } from 'vitest';
import type { AlertEvent, OrderSnapshot, SessionSnapshot } from '@contract';
import type { Refusal } from '../../../src-renderer/src/lib/refusal-tap';
import { AlertLog, REFUSAL_MERGE_MS } from '../../../src-renderer/src/state/alert-log.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';

const T0 = Date.UTC(2025, 10, 20, 4, 0, 0);
const FUNDS = 'Insufficient funds: required ₹4,52,65,000.00, available ₹1,00,00,000.00';

function setup() {
  let now = T0;
  const b = new FakeBridge().answer('session.snapshot', () => ({
    ok: true,
    value: { seq: 0, alerts: { paused: false, muted: [], sticky: [] } } as unknown as SessionSnapshot,
  }));
  const log = new AlertLog(b, { now: () => now });
  log.start();
  return { b, log, advance: (ms: number) => (now += ms), at: () => now };
}

const refusal = (over: Partial<Refusal> = {}): Refusal => ({
  channel: 'orders.place',
  what: 'BUY 50,000 SBIN NSE',
  error: { kind: 'bad_input', message: FUNDS },
  order: { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 50_000 },
  time: T0,
  ...over,
});

const order = (over: Partial<OrderSnapshot> = {}): OrderSnapshot => ({
  orderid: 'P-7',
  symbol: 'SBIN',
  exchange: 'NSE',
  action: 'BUY',
  product: 'CNC',
  pricetype: 'MARKET',
  quantity: 50_000,
  filledQuantity: 0,
  price: 0,
  triggerPrice: 0,
  averagePrice: 0,
  status: 'rejected',
  rejectionReason: FUNDS,
  timestamp: '2025-11-20 09:30:01',
  ...over,
});

const rejectionAlert = (orderid = 'P-7'): AlertEvent => ({
  id: `${orderid}:rejection:0`,
  time: T0 + 1000,
  kind: 'rejection',
  title: 'BUY 50000 SBIN rejected',
  body: `${FUNDS} (NSE · MARKET · CNC · order ${orderid})`,
  sticky: true,
  orderid,
});

/** What the core emits when its watcher sees the refused order in the book as rejected. */
function coreRejects(b: FakeBridge, seq: number, o: OrderSnapshot = order()) {
  b.emit('orders.rejected', { profileId: 'paper', time: T0 + 1000, order: o, reason: FUNDS, seq });
  b.emit('alerts.raised', { ...rejectionAlert(o.orderid), seq: seq + 1 });
}

describe('a refusal and its rejection', () => {
  it('the rejection that follows within a few seconds replaces the refusal: one entry, one unread', () => {
    const { b, log, advance } = setup();
    log.noteRefusal(refusal());
    advance(1500);
    coreRejects(b, 5);
    expect(log.entries.map((e) => [e.kind, e.orderid])).toEqual([['rejection', 'P-7']]);
    expect(log.unread).toBe(1);
  });

  it('by order id when the refusal carries one, whatever the legs say', () => {
    const { b, log, advance } = setup();
    log.noteRefusal(refusal({ channel: 'orders.modify', what: 'modify order P-7', orderid: 'P-7' }));
    advance(500);
    coreRejects(b, 5, order({ quantity: 10 }));
    expect(log.entries.map((e) => e.kind)).toEqual(['rejection']);
  });

  it('a rejection listed first keeps the later refusal of the same order out', () => {
    const { b, log, advance } = setup();
    coreRejects(b, 5);
    advance(200);
    log.noteRefusal(refusal());
    expect(log.entries.map((e) => e.kind)).toEqual(['rejection']);
  });

  it('another order, another side or quantity, or a rejection too late stays a separate entry', () => {
    const { b, log, advance } = setup();
    log.noteRefusal(refusal());
    coreRejects(b, 5, order({ orderid: 'P-8', action: 'SELL' }));
    coreRejects(b, 7, order({ orderid: 'P-9', quantity: 49_999 }));
    expect(log.entries.filter((e) => e.kind === 'refusal')).toHaveLength(1);
    advance(REFUSAL_MERGE_MS + 1);
    coreRejects(b, 9, order({ orderid: 'P-10' }));
    expect(log.entries.map((e) => [e.kind, e.orderid ?? ''])).toEqual([
      ['rejection', 'P-10'],
      ['rejection', 'P-9'],
      ['rejection', 'P-8'],
      ['refusal', ''],
    ]);
  });

  it('one refusal pairs with one rejection only', () => {
    const { b, log } = setup();
    log.noteRefusal(refusal());
    coreRejects(b, 5);
    coreRejects(b, 7, order({ orderid: 'P-11' }));
    expect(log.entries.map((e) => [e.kind, e.orderid])).toEqual([
      ['rejection', 'P-11'],
      ['rejection', 'P-7'],
    ]);
  });
});
