// Options strategies through a core on the paper gateway: NIFTY contracts picked from the paper
// master around the money, strategies sent and read through the router, the paper market moved.
import type { StrategySendInput, StrategyView } from '../../src-main/contract/index.js';
import type { Instrument } from '../../src-main/paper/instruments/instrument.js';
import type { Harness, Paper } from './core-harness.js';

export interface Chain {
  /** The contract `steps` strikes from the money (+ higher), of the nearest expiry (or the next: 1). */
  at(steps: number, kind: 'CE' | 'PE', expiry?: 0 | 1): Instrument;
  lot: number;
}

/** NIFTY's options on NFO around the index's price. */
export function niftyChain(paper: Paper): Chain {
  const master = paper.gw.gateway.master;
  const spot = paper.ltp(paper.inst('NSE_INDEX', 'NIFTY'));
  const options = master.derivatives('NFO', 'NIFTY').filter((i) => i.kind === 'CE' || i.kind === 'PE');
  const expiries = [...new Set(options.map((i) => i.expiryDate!))].sort();
  return {
    lot: options[0]!.lotsize,
    at(steps, kind, expiry = 0) {
      const list = options.filter((i) => i.expiryDate === expiries[expiry] && i.kind === kind);
      const strikes = [...new Set(list.map((i) => i.strike))].sort((a, b) => a - b);
      const atm = strikes.reduce((best, s) => (Math.abs(s - spot) < Math.abs(best - spot) ? s : best));
      const strike = strikes[strikes.indexOf(atm) + steps]!;
      return list.find((i) => i.strike === strike)!;
    },
  };
}

export type Leg = StrategySendInput['legs'][number];

export const leg = (i: Instrument, action: 'BUY' | 'SELL', lots = 1, extra: Partial<Leg> = {}): Leg => ({
  symbol: i.symbol,
  exchange: 'NFO',
  action,
  quantity: i.lotsize * lots,
  lotSize: i.lotsize,
  ...extra,
});

/** An iron condor as a builder lists it: each SELL before its wing (the core sends the wings first). */
export function ironCondor(c: Chain): Leg[] {
  return [
    leg(c.at(-2, 'PE'), 'SELL'),
    leg(c.at(-4, 'PE'), 'BUY'),
    leg(c.at(2, 'CE'), 'SELL'),
    leg(c.at(4, 'CE'), 'BUY'),
  ];
}

export async function sendStrategy(h: Harness, input: StrategySendInput): Promise<StrategyView> {
  const r = await h.core.router.invoke('strategies.send', input);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

export async function strategiesOf(h: Harness): Promise<StrategyView[]> {
  const r = await h.core.router.invoke('strategies.list');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.strategies;
}

/** The account's open positions (quantity ≠ 0), read fresh, as `symbol → quantity`. */
export async function openPositions(h: Harness): Promise<Record<string, number>> {
  await h.core.pollNow();
  const r = await h.core.router.invoke('books.positions');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return Object.fromEntries(
    r.value.positions.filter((p) => p.quantity !== 0).map((p) => [p.symbol, p.quantity]),
  );
}

/** The paper market of an option set to `price` (on its tick) and traded through. */
export function setOption(paper: Paper, i: Instrument, price: number): number {
  const p = paper.onTick(i, price);
  paper.gw.gateway.market.setPrice(i, p);
  paper.engine().tick();
  return p;
}

/** The journal's entries of one operation, oldest first. */
export async function journalled(h: Harness, operation: string, symbol?: string) {
  const r = await h.core.router.invoke('journal.query', {
    operation,
    order: 'asc',
    ...(symbol ? { symbol } : {}),
  });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

/** The account's orders at the paper book, read fresh, oldest first (paper order ids grow). */
export async function paperOrders(h: Harness) {
  await h.core.pollNow();
  const r = await h.core.router.invoke('books.orders');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return [...r.value.orders].sort((a, b) => a.orderid.localeCompare(b.orderid, undefined, { numeric: true }));
}
