// Strategy views as the core sends them (`strategies.list`), for the desk's component tests: a short
// NIFTY call leg of one lot sold at 100.00 with its last price 90, and a strategy of the given legs.
import type { StrategyLegView, StrategyView } from '../../../src-main/contract/index.js';

export const legView = (over: Partial<StrategyLegView> = {}): StrategyLegView => ({
  symbol: 'NIFTY25NOV2624000CE',
  exchange: 'NFO',
  action: 'SELL',
  quantity: 75,
  lotSize: 75,
  pricetype: 'MARKET',
  price: 0,
  state: 'sent',
  orderids: ['1'],
  open: -75,
  averagePrice: '100.00',
  ltp: 90,
  ...over,
});

/** Two lots of the leg: quantity 150, open −150 (or +150 bought). */
export const twoLots = (over: Partial<StrategyLegView> = {}): StrategyLegView =>
  legView({ quantity: 150, open: over.action === 'BUY' ? 150 : -150, ...over });

export const strategyView = (over: Partial<StrategyView> = {}): StrategyView => ({
  id: 's1',
  name: 'Short call',
  product: 'MIS',
  underlying: 'NIFTY',
  createdAt: '2026-11-29T10:00:00+05:30',
  state: 'open',
  legs: [legView()],
  realised: '0.00',
  unrealised: '750.00',
  pnl: '750.00',
  ...over,
});
