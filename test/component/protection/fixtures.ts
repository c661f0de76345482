// Brackets for the protection tests: a long SBIN MIS entry of 10 filled at 900 with its stop and
// target resting, a test overriding only what it is about.
import type { BracketView, LegView } from '@contract';

export function leg(over: Partial<LegView> = {}): LegView {
  return { state: 'working', quantity: 10, filled: 0, ...over };
}

export function bracket(over: Partial<BracketView> = {}): BracketView {
  return {
    entry: 'E1',
    symbol: 'SBIN',
    exchange: 'NSE',
    product: 'MIS',
    action: 'BUY',
    tick: 0.05,
    spec: { stop: { by: 'points', value: '10' }, target: { by: 'points', value: '20' } },
    kind: 'core',
    entryFilled: 10,
    entryPrice: 900,
    open: 10,
    stop: leg({ orderid: 'S1', price: 890 }),
    target: leg({ orderid: 'T1', price: 920 }),
    trail: 'off',
    state: 'protected',
    ...over,
  };
}

/** A bracket whose stop the gateway refused. */
export function unprotected(over: Partial<BracketView> = {}): BracketView {
  return bracket({
    state: 'unprotected',
    stop: leg({
      state: 'refused',
      quantity: 0,
      price: 889.99,
      reason: 'price 889.99 is not a multiple of the tick',
    }),
    hazard: '10 open without a stop',
    ...over,
  });
}
