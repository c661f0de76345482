// What a closed position (net 0) made today and at what prices, in one place. A real gateway's
// flat row carries average_price 0 and its day's P&L in `pnl` (the core's view: `realised`); the
// buy and sell averages are the day's trades of that symbol and product (value ÷ quantity, exact
// decimals, rounded to the paisa). Without the gateway's figure, the realised P&L is the trades'
// sell value − buy value, which holds when the day's trades opened and closed the whole position.
import type { PositionView, TradeRow } from '@contract';
import {
  addDec,
  compareDec,
  decOf,
  divDec,
  exactOf,
  mulDec,
  roundDec,
  toNumber,
  ZERO,
  type Dec,
} from '@shared/decimal.js';

export interface ClosedFigures {
  /** Realised P&L of the day, to the paisa; undefined when neither the gateway nor the trades say. */
  realised?: number;
  /** Average price of the day's buys / sells (undefined when there were none). */
  buyAverage?: number;
  sellAverage?: number;
}

const PAISE = 2;

interface Side {
  quantity: Dec;
  value: Dec;
}

const sideOf = (trades: readonly TradeRow[]): Side =>
  trades.reduce<Side>(
    (s, t) => ({
      quantity: addDec(s.quantity, exactOf(t.quantity)),
      value: addDec(s.value, mulDec(exactOf(t.quantity), exactOf(t.averagePrice))),
    }),
    { quantity: ZERO, value: ZERO },
  );

const averageOf = (s: Side): number | undefined =>
  s.quantity.int === 0n ? undefined : toNumber(divDec(s.value, s.quantity, PAISE));

/** The realised P&L and averages of a flat position; an open one gets nothing here. */
export function closedFigures(p: PositionView, trades: readonly TradeRow[]): ClosedFigures {
  if (p.quantity !== 0) return {};
  const own = trades.filter(
    (t) =>
      t.symbol === p.symbol &&
      t.exchange === p.exchange &&
      t.product.toUpperCase() === p.product.toUpperCase(),
  );
  const buys = sideOf(own.filter((t) => t.action.toUpperCase() === 'BUY'));
  const sells = sideOf(own.filter((t) => t.action.toUpperCase() === 'SELL'));
  const buyAverage = averageOf(buys);
  const sellAverage = averageOf(sells);
  // The trades say only when they balance: otherwise the day closed a position opened before it.
  const balanced = own.length > 0 && compareDec(buys.quantity, sells.quantity) === 0;
  const fromTrades = balanced
    ? toNumber(roundDec(addDec(sells.value, mulDec(buys.value, decOf(-1))), PAISE))
    : undefined;
  const realised = p.realised ?? fromTrades;
  return {
    ...(realised !== undefined ? { realised } : {}),
    ...(buyAverage !== undefined ? { buyAverage } : {}),
    ...(sellAverage !== undefined ? { sellAverage } : {}),
  };
}
