// A bracket as the desk shows it (contract/ipc/protection.ts): each leg summed over its orders from
// the book, the open quantity, the trailing state and the hazard in words.
import type { BracketState, BracketView, LegView, TrailState } from '../../contract/index.js';
import { legOrder, openOf, type Book, type Bracket } from './bracket-state.js';
import type { LegName } from './oco.js';
import { breakEvenLevel } from './trail.js';

function legView(b: Bracket, leg: LegName, book: Book): LegView | undefined {
  if (b.entry.spec[leg] === undefined) return undefined;
  const orders = b.legs[leg].filter((t) => !t.dropped).map((t) => ({ t, o: legOrder(t, book) }));
  const filled = orders.reduce((n, { o }) => n + (o.status === 'pending' ? 0 : o.filled), 0);
  const price = leg === 'stop' ? b.stop : b.levels?.target;
  const base = { filled, ...(price !== undefined ? { price } : {}) };
  const working = orders.find(({ o }) => o.status === 'working');
  if (working?.o.status === 'working')
    return {
      ...base,
      state: 'working',
      orderid: working.o.orderid,
      quantity: working.o.quantity - working.o.filled,
    };
  if (orders.some(({ o }) => o.status === 'pending')) return { ...base, state: 'pending', quantity: 0 };
  const last = orders.filter(({ t }) => !t.retried).at(-1);
  if (last?.o.status === 'refused') return { ...base, state: 'refused', quantity: 0, reason: last.o.reason };
  if (filled > 0) return { ...base, state: 'filled', quantity: 0 };
  return { ...base, state: orders.length ? 'cancelled' : 'none', quantity: 0 };
}

function trailOf(b: Bracket, entryPrice: number): TrailState {
  const { spec, action, tick } = b.entry;
  if (spec.trailStep === undefined && spec.breakEven === undefined) return 'off';
  if (b.stop === undefined || b.stop === b.initialStop) return 'armed';
  if (
    spec.breakEven &&
    entryPrice > 0 &&
    b.stop === breakEvenLevel({ action, price: entryPrice, tick }, spec.breakEven.offset)
  )
    return 'breakeven';
  return 'trailing';
}

export function bracketView(b: Bracket, book: Book): BracketView {
  const row = book.get(b.entry.orderid);
  const entryFilled = row?.filledQuantity ?? 0;
  const entryPrice = entryFilled > 0 ? (row?.averagePrice ?? 0) : 0;
  const open = openOf(b, book);
  const stop = legView(b, 'stop', book);
  const target = legView(b, 'target', book);
  const refused = [stop, target].find((l) => l?.state === 'refused');
  let state: BracketState;
  let hazard: string | undefined;
  if (entryFilled === 0) state = 'waiting';
  else if (open < 0) {
    state = 'overshoot';
    hazard = `both legs filled: the position went past flat by ${-open}`;
  } else if (open > 0 && refused) {
    state = 'unprotected';
    hazard =
      `UNPROTECTED: ${refused === stop ? 'the stop' : 'the target'} was refused: ${refused.reason ?? ''}`.trim();
  } else state = open === 0 ? 'closed' : 'protected';
  return {
    entry: b.entry.orderid,
    symbol: b.entry.symbol,
    exchange: b.entry.exchange,
    product: b.entry.product,
    action: b.entry.action,
    tick: b.entry.tick,
    spec: b.entry.spec,
    kind: 'core',
    entryFilled,
    entryPrice,
    open,
    ...(stop ? { stop } : {}),
    ...(target ? { target } : {}),
    trail: trailOf(b, entryPrice),
    state,
    ...(hazard ? { hazard } : {}),
  };
}
