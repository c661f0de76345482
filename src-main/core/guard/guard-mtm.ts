// The day's MTM from the books and the live feed, exact in paise: the funds' realised M2M plus each
// open position's (ltp − average) × quantity, at the feed's last price where one has come and the
// book's otherwise. The same sum as the soft daily limits (risk/daily-limits.ts), priced live.
import type { OrderSnapshot, PositionView } from '../../contract/index.js';
import { parseIstStamp } from '../../shared/format.js';
import { toPaise } from '../risk/daily-limits.js';
import { mtmOf, quoteKey } from '../watcher/position-diff.js';
import type { GuardFigures } from './guard-rules.js';

export type Positions = readonly Pick<
  PositionView,
  'symbol' | 'exchange' | 'quantity' | 'averagePrice' | 'ltp' | 'mtm'
>[];

/** Each position row's MTM at the price it was last marked at: a tick re-marks only its own row. */
const marked = new WeakMap<object, { ltp: number; paise: bigint }>();

function markOf(p: Positions[number], ltp: number): bigint {
  const m = marked.get(p);
  if (m?.ltp === ltp) return m.paise;
  const paise = toPaise(mtmOf(ltp, p.averagePrice, p.quantity));
  marked.set(p, { ltp, paise });
  return paise;
}

/** The open positions' figures: MTM (null while realised or a price is unknown), count, worst loss. */
export function markToMarket(
  positions: Positions | null,
  realised: string | null,
  live: ReadonlyMap<string, number>,
): Pick<GuardFigures, 'mtm' | 'openPositions' | 'worst'> {
  if (positions === null) return { mtm: null, openPositions: 0, worst: null };
  let open = 0;
  let unrealised: bigint | null = 0n;
  let worst: GuardFigures['worst'] = { loss: 0n, symbol: '' };
  for (const p of positions) {
    if (p.quantity === 0) continue;
    open += 1;
    const ltp = live.get(quoteKey(p)) ?? p.ltp;
    if (ltp === null) {
      unrealised = null;
      worst = null;
      continue;
    }
    const m = markOf(p, ltp);
    if (unrealised !== null) unrealised += m;
    if (worst !== null && -m > worst.loss) worst = { loss: -m, symbol: p.symbol };
  }
  const mtm = realised === null || unrealised === null ? null : realisedPaise(realised) + unrealised;
  return { mtm, openPositions: open, worst };
}

/** The open positions' instruments (what the guard subscribes prices for). */
export function openSymbols(positions: Positions | null): { symbol: string; exchange: string }[] {
  return (positions ?? [])
    .filter((p) => p.quantity !== 0)
    .map((p) => ({ symbol: p.symbol, exchange: p.exchange }));
}

/**
 * Orders of the IST day `day` in the book, any client's; an order whose date cannot be read counts
 * (the guard errs on the side of the limit).
 */
export function ordersOfDay(orders: readonly Pick<OrderSnapshot, 'timestamp'>[] | null, day: string): number {
  if (!orders) return 0;
  let n = 0;
  for (const o of orders) {
    const date = parseIstStamp(o.timestamp)?.date;
    if (!date || stampDay(date) === day) n += 1;
  }
  return n;
}

const stampDay = (s: { year: number; month: number; day: number }) =>
  `${s.year}-${String(s.month).padStart(2, '0')}-${String(s.day).padStart(2, '0')}`;

let lastRealised: { text: string; paise: bigint } | undefined;
function realisedPaise(text: string): bigint {
  if (lastRealised?.text !== text) lastRealised = { text, paise: toPaise(text) };
  return lastRealised.paise;
}
