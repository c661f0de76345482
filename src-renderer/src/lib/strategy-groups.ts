// The Positions pane grouped by strategy (issue 27): for each strategy with open legs a header row
// (its name, P&L, stop and target) then its legs' position rows, then "Other positions" with what
// no strategy holds. A position is matched to a leg by symbol and exchange (the strategy's product
// first); a symbol held by two strategies shows under each with the quantity that strategy's leg
// holds, and only what is left over shows under Other positions.
import type { PositionView, StrategyLegView, StrategyView } from '@contract';
import { formatQty } from '@shared/format.js';
import { displayName } from './instrument';

export interface GroupHeader {
  kind: 'group';
  key: string;
  strategy: StrategyView;
}

export interface OtherHeader {
  kind: 'other';
  key: string;
}

export interface PositionRow {
  kind: 'position';
  key: string;
  /** The account's position (the row's actions act on it). */
  position: PositionView;
  /** What the row shows: the position itself, or this strategy's share of it. */
  shown: PositionView;
  /** The strategy and leg the row belongs to, under a group. */
  strategy?: StrategyView;
  leg?: StrategyLegView;
  /** Says how the net quantity is split, when it is (the row's title). */
  split?: string;
}

export type GroupedRow = GroupHeader | OtherHeader | PositionRow;

export const positionKey = (p: Pick<PositionView, 'symbol' | 'exchange' | 'product'>): string =>
  `${p.exchange}:${p.symbol}:${p.product}`;

const sameInstrument = (
  p: Pick<PositionView, 'symbol' | 'exchange'>,
  l: Pick<StrategyLegView, 'symbol' | 'exchange'>,
) => p.symbol === l.symbol && p.exchange.toUpperCase() === l.exchange.toUpperCase();

/** The account position a leg is part of: same symbol and exchange, the strategy's product first. */
export function positionOfLeg(
  positions: readonly PositionView[],
  s: Pick<StrategyView, 'product'>,
  leg: Pick<StrategyLegView, 'symbol' | 'exchange'>,
): PositionView | undefined {
  const same = positions.filter((p) => sameInstrument(p, leg));
  return (
    same.find((p) => p.product.toUpperCase() === s.product) ?? same.find((p) => p.quantity !== 0) ?? same[0]
  );
}

/** The leg's unrealised P&L at its last price, to the paisa; null without a price or an average. */
export function legMtm(leg: Pick<StrategyLegView, 'open' | 'averagePrice' | 'ltp'>): number | null {
  if (leg.ltp === null || leg.averagePrice === null) return null;
  return Math.round((leg.ltp - Number(leg.averagePrice)) * leg.open * 100) / 100;
}

/** Strategies with a leg open now, oldest first (the order they were sent in). */
export const strategiesWithOpenLegs = (strategies: readonly StrategyView[]): StrategyView[] =>
  strategies
    .filter((s) => s.legs.some((l) => l.open !== 0))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name));

/**
 * The grouped rows: each strategy with open legs, its legs' rows, then Other positions (headers
 * only where they have rows under them). `positions` keeps its own order within Other positions.
 */
export function groupByStrategy(
  positions: readonly PositionView[],
  strategies: readonly StrategyView[],
): GroupedRow[] {
  const out: GroupedRow[] = [];
  /** Units each account position gives to strategies (by position key). */
  const given = new Map<string, number>();
  /** Strategy names per position key (for the split's words). */
  const holders = new Map<string, { name: string; units: number }[]>();
  const groups = strategiesWithOpenLegs(strategies);
  const legRows: { s: StrategyView; leg: StrategyLegView; p: PositionView | undefined }[] = [];
  for (const s of groups)
    for (const leg of s.legs) {
      if (leg.open === 0) continue;
      const p = positionOfLeg(positions, s, leg);
      legRows.push({ s, leg, p });
      if (!p) continue;
      const k = positionKey(p);
      given.set(k, (given.get(k) ?? 0) + leg.open);
      holders.set(k, [...(holders.get(k) ?? []), { name: s.name, units: leg.open }]);
    }
  for (const s of groups) {
    out.push({ kind: 'group', key: `strategy:${s.id}`, strategy: s });
    for (const { leg, p } of legRows.filter((r) => r.s === s)) {
      const product = p?.product ?? s.product;
      const base: PositionView = p ?? {
        symbol: leg.symbol,
        exchange: leg.exchange,
        product,
        quantity: leg.open,
        averagePrice: leg.averagePrice === null ? 0 : Number(leg.averagePrice),
        ltp: leg.ltp,
        mtm: legMtm(leg),
      };
      const whole = p !== undefined && p.quantity === leg.open;
      const shown: PositionView = whole
        ? base
        : {
            ...base,
            quantity: leg.open,
            averagePrice: leg.averagePrice === null ? base.averagePrice : Number(leg.averagePrice),
            ltp: leg.ltp ?? base.ltp,
            mtm: legMtm({ ...leg, ltp: leg.ltp ?? base.ltp }),
          };
      const row: PositionRow = {
        kind: 'position',
        key: `strategy:${s.id}:${positionKey(base)}`,
        position: base,
        shown,
        strategy: s,
        leg,
      };
      if (!whole) row.split = splitText(leg, p, holders.get(p ? positionKey(p) : '') ?? [], s.name);
      out.push(row);
    }
  }
  const others: PositionRow[] = [];
  for (const p of positions) {
    const k = positionKey(p);
    const held = given.get(k);
    if (held === undefined) {
      others.push({ kind: 'position', key: k, position: p, shown: p });
      continue;
    }
    const rest = p.quantity - held;
    if (rest === 0) continue;
    const shown: PositionView = {
      ...p,
      quantity: rest,
      // The rest's MTM at the account's average (the strategies' shares are counted at theirs).
      mtm: p.ltp === null ? null : Math.round((p.ltp - p.averagePrice) * rest * 100) / 100,
    };
    const names = (holders.get(k) ?? []).map((h) => `${h.name} ${formatQty(h.units, { signed: true })}`);
    others.push({
      kind: 'position',
      key: k,
      position: p,
      shown,
      split: `Net ${formatQty(p.quantity, { signed: true })} of ${displayName(p.symbol)}: ${names.join(', ')} in strategies; ${formatQty(rest, { signed: true })} outside them`,
    });
  }
  if (others.length) out.push({ kind: 'other', key: 'other' }, ...others);
  return out;
}

function splitText(
  leg: StrategyLegView,
  p: PositionView | undefined,
  holders: readonly { name: string; units: number }[],
  name: string,
): string {
  const own = `${name} holds ${formatQty(leg.open, { signed: true })} of ${displayName(leg.symbol)}`;
  if (!p) return `${own}; the positions book does not list it yet`;
  const rest = holders
    .filter((h) => h.name !== name)
    .map((h) => `${h.name} ${formatQty(h.units, { signed: true })}`);
  const outside = p.quantity - holders.reduce((n, h) => n + h.units, 0);
  return (
    `${own} (net ${formatQty(p.quantity, { signed: true })})` +
    (rest.length ? `; ${rest.join(', ')}` : '') +
    (outside !== 0 ? `; ${formatQty(outside, { signed: true })} outside strategies` : '') +
    '; P&L here is this share at its own average'
  );
}
