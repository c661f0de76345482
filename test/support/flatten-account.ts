// The account guard's flatten against a real paper gateway: an account seeded as another client
// would leave it (equity positions, two futures positions above their freeze quantity, resting
// LIMITs and trigger-pending SLs), the flatten's deps wired through a core's own order channels
// (journalled, duplicates confirmed), and an audit of the exits read back from the gateway's book.
import type { OrderRecord, PositionRecord } from '../../src-main/contract/index.js';
import { createSliceLimit, positionKey, type FlattenDeps } from '../../src-main/core/close-all/index.js';
import type { GatewayClient } from '../../src-main/gateway/index.js';
import type { Harness } from './core-harness.js';

/** The tag the flatten's exits carry here, so the audit tells them from the seeded orders. */
export const EXIT_TAG = 'guard';
const SEED_TAG = 'other-client';

export const EQUITIES = [
  'RELIANCE',
  'TCS',
  'HDFCBANK',
  'INFY',
  'ICICIBANK',
  'SBIN',
  'BHARTIARTL',
  'ITC',
  'LT',
  'KOTAKBANK',
  'AXISBANK',
  'HINDUNILVR',
  'BAJFINANCE',
  'MARUTI',
  'SUNPHARMA',
  'TITAN',
  'ASIANPAINT',
  'WIPRO',
  'HCLTECH',
  'TECHM',
] as const;

/** The flatten's deps over a core (its router's `orders.place` / `orders.cancel`) and a reads client. */
export function flattenDeps(
  h: Harness,
  reads: GatewayClient,
): Pick<FlattenDeps, 'books' | 'place' | 'cancel' | 'sliceLimit'> {
  return {
    books: reads,
    place: (o) => h.core.router.invoke('orders.place', { ...o, strategy: EXIT_TAG, confirmDuplicate: true }),
    cancel: (o) =>
      h.core.router.invoke('orders.cancel', {
        orderid: o.orderid,
        ...(o.strategy ? { strategy: o.strategy } : {}),
      }),
    sliceLimit: createSliceLimit(reads),
  };
}

export interface SeedPlan {
  /** Equity positions (small), then `aboveFreeze` futures positions of 21 lots (freeze: 20 lots). */
  equities: number;
  futures: readonly string[];
  /** Working orders on the equities: resting LIMITs and trigger-pending SLs. */
  limits: number;
  stops: number;
  /** Called between orders that take liquidity (a ManualClock gateway refreshes its book each second). */
  between?: () => void | Promise<void>;
}

export interface Seeded {
  /** Net quantity per position key as seeded. */
  open: Map<string, number>;
  working: string[];
}

async function must<T>(
  what: string,
  p: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>,
) {
  const r = await p;
  if (!r.ok) throw new Error(`${what}: ${r.error.message}`);
  return r.value;
}

/** Seeds the account through `client` (another client of the same account, straight to the gateway). */
export async function seedAccount(client: GatewayClient, plan: SeedPlan): Promise<Seeded> {
  const open = new Map<string, number>();
  const place = (o: Record<string, unknown>) =>
    must(`seed ${JSON.stringify(o)}`, client.placeorder({ strategy: SEED_TAG, ...o } as never));
  for (let n = 0; n < plan.equities; n++) {
    const symbol = EQUITIES[n % EQUITIES.length]!;
    const action = n % 3 === 2 ? 'SELL' : 'BUY';
    const quantity = 1 + n;
    await place({ exchange: 'NSE', symbol, action, quantity, pricetype: 'MARKET', product: 'MIS' });
    open.set(
      positionKey({ exchange: 'NSE', symbol, product: 'MIS' }),
      action === 'BUY' ? quantity : -quantity,
    );
  }
  for (const symbol of plan.futures) {
    const lot = 30;
    // 21 lots of BANKNIFTY (freeze 600 = 20 lots), sent as 20 + 1 lots: the gateway refuses more.
    for (const quantity of [20 * lot, lot]) {
      await plan.between?.();
      await place({ exchange: 'NFO', symbol, action: 'BUY', quantity, pricetype: 'MARKET', product: 'NRML' });
    }
    open.set(positionKey({ exchange: 'NFO', symbol, product: 'NRML' }), 21 * lot);
  }
  const working: string[] = [];
  for (let n = 0; n < plan.limits + plan.stops; n++) {
    const symbol = EQUITIES[n % EQUITIES.length]!;
    const q = await must(`quote ${symbol}`, client.quotes({ exchange: 'NSE', symbol }));
    const ltp = q.data.ltp;
    const at = (x: number) => Math.round((ltp * x) / 0.05) * 0.05;
    const r =
      n < plan.limits
        ? await place({
            exchange: 'NSE',
            symbol,
            action: 'BUY',
            quantity: 1,
            pricetype: 'LIMIT',
            price: at(0.95),
            product: 'MIS',
          })
        : await place({
            exchange: 'NSE',
            symbol,
            action: 'SELL',
            quantity: 1,
            pricetype: 'SL',
            trigger_price: at(0.93),
            price: at(0.92),
            product: 'MIS',
          });
    working.push(r.orderid);
  }
  // Wait for the book to show every seeded position filled (a part fill would rest).
  for (let i = 0; i < 20; i++) {
    const book = await must('orderbook', client.orderbook());
    if (!book.data.orders.some((o) => o.pricetype === 'MARKET' && o.order_status === 'open')) break;
    await plan.between?.();
  }
  return { open, working };
}

export interface Audit {
  /** Working orders and open positions the gateway shows now. */
  working: OrderRecord[];
  open: PositionRecord[];
  /** The flatten's exits in the book. */
  exits: OrderRecord[];
  /** Positions whose exits add up to more than was open (placed, not rejected), with the figures. */
  duplicates: string[];
  /** The largest exit of each position above its freeze, by key. */
  largest: Map<string, number>;
}

/** The gateway's books read now, the exits judged against what was seeded. */
export async function audit(client: GatewayClient, seeded: Seeded): Promise<Audit> {
  const book = await must('orderbook', client.orderbook());
  const positions = await must('positionbook', client.positionbook());
  const orders = book.data.orders;
  const exits = orders.filter((o) => o.strategy === EXIT_TAG);
  const duplicates: string[] = [];
  const largest = new Map<string, number>();
  const sums = new Map<string, number>();
  for (const o of exits) {
    if (o.order_status === 'rejected') continue;
    const k = positionKey(o);
    sums.set(k, (sums.get(k) ?? 0) + o.quantity);
    largest.set(k, Math.max(largest.get(k) ?? 0, o.quantity));
  }
  for (const [k, sum] of sums) {
    const was = Math.abs(seeded.open.get(k) ?? 0);
    if (sum > was) duplicates.push(`${k}: exits ${sum} > open ${was}`);
  }
  return {
    working: orders.filter((o) => o.order_status === 'open' || o.order_status === 'trigger pending'),
    open: positions.data.filter((p) => p.quantity !== 0),
    exits,
    duplicates,
    largest,
  };
}
