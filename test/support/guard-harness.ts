// The account guard through a core on the paper gateway: its rules set as the trader does
// (settings.update), orders through the router, the market moved on the paper gateway, and the
// guard's view read or waited for while the core's clock moves (its market polling and timers).
import { vi } from 'vitest';
import type { GuardRulesInput, GuardView } from '../../src-main/contract/index.js';
import { LIMITS, startCore, type Harness, type HarnessOptions, type Paper } from './core-harness.js';

export const PAPER = 'paper';

export async function setGuard(h: Harness, rules: GuardRulesInput): Promise<void> {
  const r = await h.core.router.invoke('settings.update', { ...LIMITS, guard: { [PAPER]: rules } });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
}

export async function guardState(h: Harness): Promise<GuardView> {
  const r = await h.core.router.invoke('guard.state');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

export function order(symbol: string, action: 'BUY' | 'SELL', quantity: number) {
  return {
    symbol,
    exchange: 'NSE' as const,
    action,
    quantity,
    pricetype: 'MARKET' as const,
    product: 'MIS' as const,
  };
}

/** A filled MARKET order through the router, and the books read after it. */
export async function fill(h: Harness, symbol: string, action: 'BUY' | 'SELL', quantity: number) {
  const r = await h.core.router.invoke('orders.place', order(symbol, action, quantity));
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  await h.core.pollNow();
  return r.value.orderid;
}

/** The average price of the open position in `symbol`, as the paper's position book states it. */
export async function averageOf(h: Harness, symbol: string): Promise<number> {
  const r = await h.core.router.invoke('books.positions');
  const p = r.ok ? r.value.positions.find((x) => x.symbol === symbol && x.quantity !== 0) : undefined;
  if (!p) throw new Error(`no open ${symbol}`);
  return p.averagePrice;
}

/** The paper market's price of `symbol` set (on its tick) and traded through. */
export function move(paper: Paper, symbol: string, price: number): number {
  const inst = paper.inst('NSE', symbol);
  const p = paper.onTick(inst, price);
  paper.gw.gateway.market.setPrice(inst, p);
  paper.engine().tick();
  return p;
}

/** Moves the core's clock a second at a time (its market polling, its timers) until `check` holds. */
export async function waitGuard(
  h: Harness,
  check: (v: GuardView) => void,
  timeout = 8000,
): Promise<GuardView> {
  let last: GuardView | undefined;
  await vi.waitFor(
    async () => {
      await h.clock.advance(1000);
      last = await guardState(h);
      check(last);
    },
    { timeout, interval: 20 },
  );
  return last!;
}

/**
 * The day's MTM the paper gateway's books give at the prices the market was moved to, in paise:
 * funds' realised M2M + (price − average) × quantity of each open position (prices and averages on
 * the tick, so whole paise).
 */
export async function paperMtmPaise(h: Harness, prices: Record<string, number>): Promise<number> {
  await h.core.pollNow();
  const funds = await h.core.router.invoke('books.funds');
  const positions = await h.core.router.invoke('books.positions');
  if (!funds.ok || !positions.ok) throw new Error('books not read');
  let paise = Math.round(Number(funds.value.realisedMtm) * 100);
  for (const p of positions.value.positions) {
    if (p.quantity === 0) continue;
    const price = prices[p.symbol] ?? p.ltp;
    if (price == null) throw new Error(`no price for ${p.symbol}`);
    paise += (Math.round(price * 100) - Math.round(p.averagePrice * 100)) * p.quantity;
  }
  return paise;
}

export const rupees = (paise: number): string => {
  const abs = Math.abs(paise);
  return `${paise < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** A core whose paper account key is known: another client (a script, a phone) trades on it directly. */
export async function startKeyedCore(
  paper: Paper,
  options: HarnessOptions = {},
): Promise<{
  h: Harness;
  other: (path: string, fields: Record<string, unknown>) => Promise<Record<string, unknown>>;
}> {
  let key = '';
  const h = await startCore(paper, {
    ...options,
    ports: {
      startPaperGateway: async ({ apiKey }) => {
        key = apiKey;
        paper.gw.gateway.keys.add(apiKey);
        return { url: paper.proxy.url, stop: async () => undefined };
      },
    },
  });
  return { h, other: async (path, fields) => (await paper.gw.api(path, key, fields)).body };
}
