// The bracket keeper against the embedded paper gateway over real HTTP: an entry's fills get a
// resting SL-M stop and LIMIT target for the filled quantity, one leg's fill cancels the other,
// the stop trails by modifies, and a place whose answer was lost is adopted from the book, never
// sent again. The paper market is moved with setPrice; its engine matches on tick().
import { describe, expect, it } from 'vitest';
import { ProtectionSpec, type OrderRecord } from '../../../src-main/contract/index.js';
import {
  createBracketKeeper,
  type BracketHazard,
  type ProtectivePorts,
} from '../../../src-main/core/protection/index.js';
import { createGatewayClient, type GatewayClient } from '../../../src-main/gateway/index.js';
import { gatewayPorts, orderRows, placeEntry, snapshots } from '../../support/bracket-paper.js';
import { tickRound, useEngineGateway } from '../../support/paper-gateway.js';

const gw = useEngineGateway();

function clientFor(key: string): GatewayClient {
  return createGatewayClient({ baseUrl: gw.url, getApiKey: () => key });
}

const portsOf = (client: GatewayClient) => gatewayPorts(client);
const orders = orderRows;

const spec = ProtectionSpec.parse({
  stop: { by: 'points', value: '20' },
  target: { by: 'points', value: '30' },
});

const enter = (client: GatewayClient, symbol: string, quantity: number) =>
  placeEntry(client, { symbol, quantity });

function keeperOn(client: GatewayClient, symbol: string, entry: string) {
  const hazards: BracketHazard[] = [];
  const ports = portsOf(client);
  const keeper = createBracketKeeper(ports, (h) => hazards.push(h));
  keeper.attach({
    orderid: entry,
    symbol,
    exchange: 'NSE',
    product: 'MIS',
    action: 'BUY',
    tick: gw.instrument('NSE', symbol).tickSize,
    spec,
  });
  return { keeper, ports, hazards };
}

const row = (rows: OrderRecord[], id: string) => rows.find((o) => o.orderid === id)!;

describe('bracket keeper on the paper gateway', () => {
  it('rests a stop and a target for a filled entry; the target’s fill cancels the stop', async () => {
    const client = clientFor(gw.newKey());
    const symbol = 'INFY';
    const entry = await enter(client, symbol, 10);
    const { keeper, ports } = keeperOn(client, symbol, entry);
    await keeper.onBook(snapshots(await orders(client)));
    const fill = row(await orders(client), entry).average_price!;
    expect(keeper.levelsOf(entry)).toEqual({ stop: fill - 20, target: fill + 30 });
    let book = await orders(client);
    const stop = book.find((o) => o.pricetype === 'SL-M')!;
    const target = book.find((o) => o.pricetype === 'LIMIT' && o.action === 'SELL')!;
    expect(stop).toMatchObject({
      action: 'SELL',
      quantity: 10,
      trigger_price: fill - 20,
      order_status: 'trigger pending',
    });
    expect(target).toMatchObject({ action: 'SELL', quantity: 10, price: fill + 30, order_status: 'open' });
    // A second look at the same book sends nothing.
    await keeper.onBook(snapshots(book));
    expect(ports.sent).toEqual(['place SL-M 10', 'place LIMIT 10']);

    gw.gateway.market.setPrice(
      gw.instrument('NSE', symbol),
      tickRound(gw.instrument('NSE', symbol), fill + 31),
    );
    gw.engine.tick();
    await keeper.onBook(snapshots(await orders(client)));
    book = await orders(client);
    expect(row(book, target.orderid).order_status).toBe('complete');
    expect(row(book, stop.orderid).order_status).toBe('cancelled');
    expect(ports.sent).toEqual(['place SL-M 10', 'place LIMIT 10', 'cancel']);
    await keeper.onBook(snapshots(book));
    expect(ports.sent).toHaveLength(3);
  });

  it('the stop’s fill (through a gap, at the market) cancels the target', async () => {
    const client = clientFor(gw.newKey());
    const symbol = 'TCS';
    const i = gw.instrument('NSE', symbol);
    const entry = await enter(client, symbol, 5);
    const { keeper, ports } = keeperOn(client, symbol, entry);
    await keeper.onBook(snapshots(await orders(client)));
    const { stop: trigger } = keeper.levelsOf(entry)!;
    // Gaps 40 points through the 20-point stop: the SL-M fills at the market, not at its trigger.
    gw.gateway.market.setPrice(i, tickRound(i, trigger! - 20));
    gw.engine.tick();
    await keeper.onBook(snapshots(await orders(client)));
    const book = await orders(client);
    const stop = book.find((o) => o.pricetype === 'SL-M')!;
    expect(stop.order_status).toBe('complete');
    expect(stop.average_price!).toBeLessThan(trigger!);
    expect(book.find((o) => o.pricetype === 'LIMIT' && o.action === 'SELL')!.order_status).toBe('cancelled');
    expect(ports.sent).toEqual(['place SL-M 5', 'place LIMIT 5', 'cancel']);
  });

  it('covers partial fills of the entry: the legs grow with the filled quantity', async () => {
    const client = clientFor(gw.newKey());
    const symbol = 'HDFCBANK';
    const i = gw.instrument('NSE', symbol);
    const shown = gw.gateway.market.book(i).asks.reduce((s, l) => s + l.quantity, 0);
    const entry = await enter(client, symbol, shown * 2);
    const { keeper, ports } = keeperOn(client, symbol, entry);
    await keeper.onBook(snapshots(await orders(client)));
    let book = await orders(client);
    expect(row(book, entry).filled_quantity).toBe(shown);
    expect(book.filter((o) => o.orderid !== entry).map((o) => o.quantity)).toEqual([shown, shown]);
    for (let n = 0; n < 20 && row(book, entry).order_status !== 'complete'; n++) {
      gw.clock.advance(1000);
      gw.engine.tick();
      book = await orders(client);
    }
    expect(row(book, entry).order_status).toBe('complete');
    await keeper.onBook(snapshots(book));
    book = await orders(client);
    const legs = book.filter((o) => o.orderid !== entry);
    legs.sort((a, b) => b.pricetype.localeCompare(a.pricetype));
    expect(legs.map((o) => [o.pricetype, o.quantity])).toEqual([
      ['SL-M', shown * 2],
      ['LIMIT', shown * 2],
    ]);
    expect(ports.sent.slice(2)).toEqual([
      `modify SL-M ${shown * 2} @${legs[0]!.trigger_price}`,
      `modify LIMIT ${shown * 2} @${legs[1]!.price}`,
    ]);
  });

  it('trails the stop up in steps as the price rises, never back down', async () => {
    const client = clientFor(gw.newKey());
    const symbol = 'RELIANCE';
    const i = gw.instrument('NSE', symbol);
    const entry = await enter(client, symbol, 3);
    const hazards: BracketHazard[] = [];
    const ports = portsOf(client);
    const keeper = createBracketKeeper(ports, (h) => hazards.push(h));
    keeper.attach({
      orderid: entry,
      symbol,
      exchange: 'NSE',
      product: 'MIS',
      action: 'BUY',
      tick: i.tickSize,
      spec: ProtectionSpec.parse({ stop: { by: 'points', value: '10' }, trailStep: '5' }),
    });
    await keeper.onBook(snapshots(await orders(client)));
    // The next book shows the stop resting: from then on it trails.
    await keeper.onBook(snapshots(await orders(client)));
    const fill = row(await orders(client), entry).average_price!;
    const stopOf = async () => (await orders(client)).find((o) => o.pricetype === 'SL-M')!.trigger_price;
    expect(await stopOf()).toBe(fill - 10);
    await keeper.onPrice(symbol, 'NSE', fill + 4);
    expect(await stopOf()).toBe(fill - 10);
    await keeper.onPrice(symbol, 'NSE', fill + 11);
    expect(await stopOf()).toBe(fill); // two steps of 5
    await keeper.onPrice(symbol, 'NSE', fill + 6); // pulled back: no step back
    expect(await stopOf()).toBe(fill);
    expect(ports.sent).toEqual(['place SL-M 3', `modify SL-M 3 @${fill}`]);
    expect(hazards).toEqual([]);
  });

  it('never places a leg twice when the answer to its place was lost: it adopts it from the book', async () => {
    const client = clientFor(gw.newKey());
    const symbol = 'SBIN';
    const entry = await enter(client, symbol, 7);
    const real = portsOf(client);
    let lose = true;
    const ports: ProtectivePorts = {
      ...real,
      async place(o) {
        const r = await real.place(o);
        // The order reached the gateway; its answer is lost on the way back.
        if (lose && o.pricetype === 'SL-M') return { ok: false, outcome: 'unknown', message: 'no answer' };
        return r;
      },
    };
    const keeper = createBracketKeeper(ports, () => undefined);
    keeper.attach({
      orderid: entry,
      symbol,
      exchange: 'NSE',
      product: 'MIS',
      action: 'BUY',
      tick: 0.05,
      spec,
    });
    await keeper.onBook(snapshots(await orders(client)));
    lose = false;
    for (let n = 0; n < 3; n++) await keeper.onBook(snapshots(await orders(client)));
    const stops = (await orders(client)).filter((o) => o.pricetype === 'SL-M');
    expect(stops).toHaveLength(1);
    expect(real.sent.filter((s) => s.startsWith('place SL-M'))).toHaveLength(1);
    // Adopted: the target's fill now cancels that very stop.
    const fill = row(await orders(client), entry).average_price!;
    const i = gw.instrument('NSE', symbol);
    gw.gateway.market.setPrice(i, tickRound(i, fill + 31));
    gw.engine.tick();
    await keeper.onBook(snapshots(await orders(client)));
    expect(row(await orders(client), stops[0]!.orderid).order_status).toBe('cancelled');
  });

  it('adopts each lost stop by its own quantity when two brackets rest at the same level', async () => {
    const client = clientFor(gw.newKey());
    const symbol = 'ITC';
    // The market does not move between the two entries: both fill at one price, so their legs share
    // a level and differ only in quantity.
    const small = await enter(client, symbol, 2);
    const large = await enter(client, symbol, 3);
    const real = portsOf(client);
    let lose = true;
    const keeper = createBracketKeeper(
      {
        ...real,
        async place(o) {
          const r = await real.place(o);
          if (lose && o.pricetype === 'SL-M') return { ok: false, outcome: 'unknown', message: 'no answer' };
          return r;
        },
      },
      () => undefined,
    );
    const attach = (orderid: string) =>
      keeper.attach({ orderid, symbol, exchange: 'NSE', product: 'MIS', action: 'BUY', tick: 0.05, spec });
    // The larger one first: the first book's stops are found in the order the brackets were attached.
    attach(large);
    attach(small);
    await keeper.onBook(snapshots(await orders(client)));
    lose = false;
    for (let n = 0; n < 3; n++) await keeper.onBook(snapshots(await orders(client)));
    const rows = await orders(client);
    const stops = rows.filter((o) => o.pricetype === 'SL-M');
    expect(stops.map((o) => o.trigger_price)).toEqual([stops[0]!.trigger_price, stops[0]!.trigger_price]);
    expect(real.sent.filter((x) => x.startsWith('place SL-M'))).toHaveLength(2);
    const stopOf = (entry: string) => keeper.views().find((v) => v.entry === entry)!.stop!;
    expect(row(rows, stopOf(small).orderid!).quantity).toBe(2);
    expect(row(rows, stopOf(large).orderid!).quantity).toBe(3);
    // Nothing was modified to fit: each bracket has its own order.
    expect(real.sent.filter((x) => x.startsWith('modify'))).toEqual([]);
  });

  it('says a stop the gateway refused is unprotected, and does not place it again by itself', async () => {
    const client = clientFor(gw.newKey());
    const symbol = 'INFY';
    expect(gw.instrument('NSE', symbol).tickSize).toBe(0.05);
    const entry = await enter(client, symbol, 4);
    const hazards: BracketHazard[] = [];
    const ports = portsOf(client);
    const keeper = createBracketKeeper(ports, (h) => hazards.push(h));
    // A tick of 0.01 where the exchange's is 0.05: the stop 10.01 points under is off its tick.
    keeper.attach({
      orderid: entry,
      symbol,
      exchange: 'NSE',
      product: 'MIS',
      action: 'BUY',
      tick: 0.01,
      spec: ProtectionSpec.parse({ stop: { by: 'points', value: '10.01' } }),
    });
    await keeper.onBook(snapshots(await orders(client)));
    for (let n = 0; n < 2; n++) await keeper.onBook(snapshots(await orders(client)));
    expect(ports.sent).toEqual(['place SL-M 4']);
    expect((await orders(client)).filter((o) => o.pricetype === 'SL-M')).toHaveLength(0);
    // Told once, at the refusal, however many books show it since.
    expect(hazards).toHaveLength(1);
    expect(hazards[0]).toMatchObject({ kind: 'unprotected', entry, leg: 'stop', quantity: 4 });
    expect((hazards[0] as { reason: string }).reason).toMatch(/tick/i);
  });

  it('places again a leg the gateway did not act on (not sent), exactly once', async () => {
    const client = clientFor(gw.newKey());
    const symbol = 'ITC';
    const entry = await enter(client, symbol, 6);
    const real = portsOf(client);
    let refuseNext = true;
    const ports: ProtectivePorts = {
      ...real,
      async place(o) {
        if (refuseNext && o.pricetype === 'SL-M') {
          refuseNext = false;
          return { ok: false, outcome: 'not_sent', message: 'connection refused' };
        }
        return real.place(o);
      },
    };
    const keeper = createBracketKeeper(ports, () => undefined);
    keeper.attach({
      orderid: entry,
      symbol,
      exchange: 'NSE',
      product: 'MIS',
      action: 'BUY',
      tick: 0.05,
      spec,
    });
    for (let n = 0; n < 3; n++) await keeper.onBook(snapshots(await orders(client)));
    const book = await orders(client);
    expect(book.filter((o) => o.pricetype === 'SL-M').map((o) => o.quantity)).toEqual([6]);
    expect(book.filter((o) => o.pricetype === 'LIMIT' && o.action === 'SELL').map((o) => o.quantity)).toEqual(
      [6],
    );
  });
});
