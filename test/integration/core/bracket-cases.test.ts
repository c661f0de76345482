// Issue 25's bracket cases, each read back from the paper gateway's own book over HTTP (never a
// mock): a full fill rests both legs for the whole quantity; partial fills on both sides (a part-
// filled entry, then a target filled in part) leave the stop covering exactly the open quantity;
// the stop's fill cancels the target; break-even moves the stop to the entry plus its offset; an SL
// entry gets its legs only once it fills; and a price path that reaches both sides in one session
// ends with one leg filled and the other cancelled. The gateway's engine fills a resting LIMIT in
// parts (limitFills 'depth'): each second, what the other side's best level shows.
import { describe, expect, it } from 'vitest';
import { ProtectionSpec, type OrderRecord } from '../../../src-main/contract/index.js';
import { createBracketKeeper, type BracketHazard } from '../../../src-main/core/protection/index.js';
import { createGatewayClient, type GatewayClient } from '../../../src-main/gateway/index.js';
import {
  gatewayPorts,
  orderRows,
  placeEntry,
  snapshots,
  useBracketGateway,
  type EntryOrder,
} from '../../support/bracket-paper.js';
import { tickRound } from '../../support/paper-gateway.js';

const gw = useBracketGateway({ limitFills: 'depth' });

const spec = ProtectionSpec.parse({
  stop: { by: 'points', value: '20' },
  target: { by: 'points', value: '30' },
});

/** A fresh account, an entry in it, and a keeper attached to that entry. */
async function bracket(entryOrder: EntryOrder, protection: ProtectionSpec = spec) {
  const key = gw.newKey();
  // Above the desk's 10 a second: the cases are about the book, not the budget.
  const client: GatewayClient = createGatewayClient({
    baseUrl: gw.url,
    getApiKey: () => key,
    rateLimit: 100,
  });
  const entry = await placeEntry(client, entryOrder);
  const hazards: BracketHazard[] = [];
  const ports = gatewayPorts(client);
  const keeper = createBracketKeeper(ports, (h) => hazards.push(h));
  const inst = gw.instrument('NSE', entryOrder.symbol);
  keeper.attach({
    orderid: entry,
    symbol: entryOrder.symbol,
    exchange: 'NSE',
    product: 'MIS',
    action: 'BUY',
    tick: inst.tickSize,
    spec: protection,
  });
  const book = () => orderRows(client);
  /** The keeper looks at the book as it is now; answers the book after its sends. */
  const look = async (): Promise<OrderRecord[]> => {
    await keeper.onBook(snapshots(await book()));
    return book();
  };
  const legs = (rows: OrderRecord[]) => ({
    entry: rows.find((o) => o.orderid === entry)!,
    stops: rows.filter((o) => o.pricetype === 'SL-M'),
    targets: rows.filter((o) => o.orderid !== entry && o.pricetype === 'LIMIT' && o.action === 'SELL'),
  });
  const position = async () => {
    const r = await client.positionbook();
    if (!r.ok) throw new Error(r.error.message);
    return r.value.data.find((p) => p.symbol === entryOrder.symbol)?.quantity ?? 0;
  };
  /** One second on, the market at `price`, matched. */
  const moveTo = (price: number) => {
    gw.clock.advance(1000);
    gw.gateway.market.setPrice(inst, tickRound(inst, price));
    gw.engine.tick();
  };
  return { client, entry, keeper, ports, hazards, inst, book, look, legs, position, moveTo };
}

const open = (o: OrderRecord) => o.quantity - (o.filled_quantity ?? 0);
const working = (o: OrderRecord) => o.order_status === 'open' || o.order_status === 'trigger pending';

describe('bracket cases on the paper gateway', () => {
  it('a full fill: both legs rest for the whole quantity at their levels', async () => {
    const b = await bracket({ symbol: 'INFY', quantity: 12 });
    const rows = await b.look();
    const { entry, stops, targets } = b.legs(rows);
    expect(entry).toMatchObject({ order_status: 'complete', filled_quantity: 12 });
    const fill = entry.average_price!;
    expect(stops).toHaveLength(1);
    expect(targets).toHaveLength(1);
    expect(stops[0]).toMatchObject({
      action: 'SELL',
      quantity: 12,
      filled_quantity: 0,
      trigger_price: tickRound(b.inst, fill - 20),
      order_status: 'trigger pending',
    });
    expect(targets[0]).toMatchObject({
      action: 'SELL',
      quantity: 12,
      filled_quantity: 0,
      price: tickRound(b.inst, fill + 30),
      order_status: 'open',
    });
    expect(await b.position()).toBe(12);
    // Covered: nothing more to send on later books.
    await b.look();
    expect(b.ports.sent).toEqual(['place SL-M 12', 'place LIMIT 12']);
    expect(b.hazards).toEqual([]);
  });

  it('partial fills on both sides: the stop covers what the entry filled less what the target closed', async () => {
    const symbol = 'HDFCBANK';
    const inst = gw.instrument('NSE', symbol);
    const asks = gw.gateway.market.book(inst).asks;
    const shown = asks.reduce((n, l) => n + l.quantity, 0);
    // A BUY LIMIT at the fifth ask takes the five levels shown and rests for the rest.
    const b = await bracket({ symbol, quantity: shown * 2, pricetype: 'LIMIT', price: asks[4]!.price });
    let rows = await b.look();
    let { entry, stops, targets } = b.legs(rows);
    expect(entry).toMatchObject({ order_status: 'open', filled_quantity: shown });
    expect([stops[0]!.quantity, targets[0]!.quantity]).toEqual([shown, shown]);
    const levels = b.keeper.levelsOf(entry.orderid)!;

    // The price reaches the target: the entry (below) waits, the target fills what the bid shows.
    b.moveTo(levels.target!);
    const firstBid = gw.gateway.market.book(inst).bids[0]!.quantity;
    rows = await b.book();
    ({ entry, targets } = b.legs(rows));
    expect(entry.filled_quantity).toBe(shown);
    const part = targets[0]!.filled_quantity!;
    expect(part).toBe(Math.min(firstBid, shown));
    expect(part).toBeLessThan(shown);
    expect(targets[0]).toMatchObject({ order_status: 'open', average_price: levels.target });

    // The keeper reduces the stop to the open quantity; the target already covers it.
    rows = await b.look();
    ({ stops, targets } = b.legs(rows));
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ quantity: shown - part, order_status: 'trigger pending' });
    expect(open(targets[0]!)).toBe(shown - part);
    expect(b.ports.sent.slice(2)).toEqual([`modify SL-M ${shown - part} @${levels.stop}`]);
    expect(await b.position()).toBe(shown - part);

    // The price comes back to the entry's limit: it fills further, and both legs grow with it.
    b.moveTo(asks[4]!.price);
    rows = await b.look();
    ({ entry, stops, targets } = b.legs(rows));
    const filled = entry.filled_quantity!;
    expect(filled).toBeGreaterThan(shown);
    const closed = targets[0]!.filled_quantity!;
    expect(stops.filter(working).map(open)).toEqual([filled - closed]);
    expect(targets.filter(working).map(open)).toEqual([filled - closed]);
    expect(await b.position()).toBe(filled - closed);
    expect(b.hazards).toEqual([]);
  });

  it('the stop’s fill at its trigger cancels the target and closes the position', async () => {
    const b = await bracket({ symbol: 'WIPRO', quantity: 8 });
    await b.look();
    const { stop, target } = b.keeper.levelsOf(b.legs(await b.book()).entry.orderid)!;
    b.moveTo(stop! + 5);
    let rows = await b.look();
    expect(b.legs(rows).stops[0]!.order_status).toBe('trigger pending');
    b.moveTo(stop!);
    rows = await b.look();
    const { stops, targets } = b.legs(rows);
    expect(stops[0]).toMatchObject({ order_status: 'complete', filled_quantity: 8 });
    expect(stops[0]!.average_price!).toBeLessThanOrEqual(stop!);
    expect(targets[0]).toMatchObject({ order_status: 'cancelled', filled_quantity: 0, price: target });
    expect(await b.position()).toBe(0);
    expect(b.ports.sent).toEqual(['place SL-M 8', 'place LIMIT 8', 'cancel']);
    await b.look();
    expect(b.ports.sent).toHaveLength(3);
  });

  it('break-even: once the trigger is reached the stop rests at the entry plus the offset', async () => {
    const protection = ProtectionSpec.parse({
      stop: { by: 'points', value: '10' },
      target: { by: 'points', value: '40' },
      breakEven: { trigger: '8', offset: '1' },
    });
    const b = await bracket({ symbol: 'RELIANCE', quantity: 3 }, protection);
    await b.look();
    // The next book shows the stop resting: from then on it can move.
    let rows = await b.look();
    const fill = b.legs(rows).entry.average_price!;
    const stopOf = async () => b.legs(await b.book()).stops[0]!.trigger_price;
    const initial = tickRound(b.inst, fill - 10);
    expect(await stopOf()).toBe(initial);
    await b.keeper.onPrice('RELIANCE', 'NSE', fill + 7.95);
    expect(await stopOf()).toBe(initial);
    await b.keeper.onPrice('RELIANCE', 'NSE', fill + 8);
    // On the tick at or beyond fill + 1, whatever the fill's decimals.
    const breakEven = Math.ceil((fill + 1) / b.inst.tickSize - 1e-9) * b.inst.tickSize;
    expect(await stopOf()).toBeCloseTo(breakEven, 4);
    expect(b.keeper.levelsOf(b.legs(await b.book()).entry.orderid)!.stop).toBeCloseTo(breakEven, 4);
    // Never back: a pull-back leaves it there.
    await b.keeper.onPrice('RELIANCE', 'NSE', fill + 3);
    expect(await stopOf()).toBeCloseTo(breakEven, 4);
    expect(b.ports.sent.filter((s) => s.startsWith('modify'))).toHaveLength(1);

    // The price falls through it: the stop closes the position at about the entry, the target goes.
    b.moveTo(fill - 2);
    rows = await b.look();
    const { stops, targets } = b.legs(rows);
    expect(stops[0]).toMatchObject({ order_status: 'complete', filled_quantity: 3 });
    expect(targets[0]!.order_status).toBe('cancelled');
    expect(await b.position()).toBe(0);
    expect(b.hazards).toEqual([]);
  });

  it('an SL entry gets its legs only once it fills, at levels from its fill', async () => {
    const symbol = 'ITC';
    const inst = gw.instrument('NSE', symbol);
    const p = gw.gateway.market.lastPrice(inst);
    const trigger = tickRound(inst, p + 2);
    const limit = tickRound(inst, p + 2.5);
    const b = await bracket(
      { symbol, quantity: 6, pricetype: 'SL', price: limit, trigger_price: trigger },
      ProtectionSpec.parse({ stop: { by: 'points', value: '3' }, target: { by: 'points', value: '4' } }),
    );
    let rows = await b.look();
    expect(b.legs(rows).entry.order_status).toBe('trigger pending');
    // A gap past its limit: triggered, open, nothing filled, so nothing to protect yet.
    b.moveTo(limit + 5);
    rows = await b.look();
    expect(b.legs(rows).entry).toMatchObject({ order_status: 'open', filled_quantity: 0 });
    expect(b.ports.sent).toEqual([]);
    // Back to its limit: it fills there, and the legs rest from that price.
    b.moveTo(limit);
    rows = await b.look();
    const { entry, stops, targets } = b.legs(rows);
    expect(entry).toMatchObject({ order_status: 'complete', filled_quantity: 6, average_price: limit });
    expect(stops[0]).toMatchObject({ quantity: 6, trigger_price: tickRound(inst, limit - 3) });
    expect(targets[0]).toMatchObject({ quantity: 6, price: tickRound(inst, limit + 4) });
    expect(b.ports.sent).toEqual(['place SL-M 6', 'place LIMIT 6']);
  });

  it('a price path through both sides in one session: the first side reached fills, the other is cancelled', async () => {
    const b = await bracket({ symbol: 'TCS', quantity: 5 });
    await b.look();
    const { stop, target } = b.keeper.levelsOf(b.legs(await b.book()).entry.orderid)!;
    const t0 = gw.clock.now();
    // Up through the target, back, and down through the stop within a minute.
    gw.gateway.market.setPricePath(b.inst, [
      { atMs: t0 + 1_000, price: tickRound(b.inst, target! + 1) },
      { atMs: t0 + 2_000, price: tickRound(b.inst, (stop! + target!) / 2) },
      { atMs: t0 + 3_000, price: tickRound(b.inst, stop! - 1) },
    ]);
    gw.clock.set(t0 + 1_000);
    gw.engine.tick();
    let rows = await b.look();
    expect(b.legs(rows).targets[0]).toMatchObject({ order_status: 'complete', filled_quantity: 5 });
    expect(b.legs(rows).stops[0]!.order_status).toBe('cancelled');
    for (const at of [t0 + 2_000, t0 + 3_000]) {
      gw.clock.set(at);
      gw.engine.tick();
      rows = await b.look();
    }
    // The stop's side was reached too, with nothing left there to fill.
    expect(gw.gateway.market.lastPrice(b.inst)).toBeLessThan(stop!);
    const { stops, targets } = b.legs(rows);
    expect(stops.map((o) => [o.order_status, o.filled_quantity])).toEqual([['cancelled', 0]]);
    expect(targets.map((o) => o.order_status)).toEqual(['complete']);
    expect(await b.position()).toBe(0);
    expect(b.ports.sent).toEqual(['place SL-M 5', 'place LIMIT 5', 'cancel']);
    expect(b.hazards).toEqual([]);
  });
});
