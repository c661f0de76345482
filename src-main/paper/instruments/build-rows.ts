// Over 300 lines: one generator per segment of the master contract (cash, F&O, MCX, CDS), each short.
// Generates every master-contract row for one (seed, today): cash equities on NSE and BSE, indices,
// NFO/BFO index and stock derivatives, MCX commodities and CDS currency derivatives.
import { formatExpiry } from './calendar.js';
import { COMMODITIES, CURRENCIES, CURRENCY_TICK, type CommoditySpec } from './data/commodities.js';
import { EQUITIES, type EquitySpec } from './data/equities.js';
import { INDEX_DERIVATIVES, INDICES, type IndexDerivativeSpec } from './data/indices.js';
import {
  cdsRule,
  indexOptionExpiries,
  mcxOptionExpiry,
  mcxRule,
  monthlyExpiries,
  monthlyRule,
} from './expiry-schedule.js';
import type { PaperExchange } from './instrument.js';
import { RowBuilder } from './row-builder.js';
import { unitFor } from './seeded.js';
import { roundToTick, stockStrikeStep, strikeLadder } from './strikes.js';
import { futureBrSymbol, futureSymbol, optionBrSymbol, optionSymbol } from './symbols.js';

/** Stock options: strikes either side of at-the-money, for each of the three monthly expiries. */
export const STOCK_OPTION_HALF_WIDTH = 45;
/** Options premium tick for NSE/BSE index and stock options. */
const OPTION_TICK = 0.05;
/** Index spot series tick. */
const INDEX_TICK = 0.05;
/** Cash equities: tick 0.01 below Rs 250, 0.05 from Rs 250 (applied to the jittered price). */
export function equityTick(price: number): number {
  return price < 250 ? 0.01 : 0.05;
}
/** Cash orders are capped at about Rs 5 crore of value (no exchange freeze applies to cash). */
const CASH_ORDER_VALUE_CAP = 50_000_000;

const BROKER_EXCHANGE: Record<'NFO' | 'BFO' | 'MCX' | 'CDS', string> = {
  NFO: 'NSE_FO',
  BFO: 'BSE_FO',
  MCX: 'MCX_FO',
  CDS: 'NCD_FO',
};

interface Ctx {
  seed: number;
  today: string;
  b: RowBuilder;
}

/** Seeded +-2% move of a reference price so different seeds give different (but realistic) markets. */
function jitter(ctx: Ctx, label: string, price: number, tick: number): number {
  return roundToTick(price * (1 + 0.04 * (unitFor(ctx.seed, `price:${label}`) - 0.5)), tick);
}

export function buildRows(seed: number, today: string): RowBuilder {
  const ctx: Ctx = { seed, today, b: new RowBuilder() };
  const stockPrices = addEquities(ctx);
  const indexPrices = addIndices(ctx);
  for (const spec of INDEX_DERIVATIVES.filter((s) => s.exchange === 'NFO')) {
    addIndexDerivatives(ctx, spec, indexPrices);
  }
  for (const eq of EQUITIES) {
    if (eq.lot > 0) addStockDerivatives(ctx, eq, stockPrices.get(eq.symbol) ?? eq.price);
  }
  for (const spec of INDEX_DERIVATIVES.filter((s) => s.exchange === 'BFO')) {
    addIndexDerivatives(ctx, spec, indexPrices);
  }
  addCommodities(ctx);
  addCurrencies(ctx);
  return ctx.b;
}

function addEquities(ctx: Ctx): Map<string, number> {
  const prices = new Map<string, number>();
  for (const eq of EQUITIES) {
    const tick = equityTick(eq.price);
    const price = jitter(ctx, `NSE:${eq.symbol}`, eq.price, tick);
    prices.set(eq.symbol, price);
    ctx.b.addUnderlying({
      key: `NSE:${eq.symbol}`,
      name: eq.symbol,
      basePrice: price,
      tickSize: tick,
      volatility: round4(0.2 + 0.22 * unitFor(ctx.seed, `vol:${eq.symbol}`)),
    });
  }
  // NSE first, then the same companies on BSE (same underlying series: one company, one price).
  for (const exchange of ['NSE', 'BSE'] as const) {
    for (const eq of EQUITIES) {
      const price = prices.get(eq.symbol) ?? eq.price;
      ctx.b.add({
        symbol: eq.symbol,
        brsymbol: exchange === 'NSE' ? `${eq.symbol}-EQ` : eq.symbol,
        name: eq.name,
        exchange,
        brexchange: exchange,
        expiry: '',
        expiryDate: null,
        strike: -0.01,
        lotsize: 1,
        instrumenttype: '',
        tickSize: equityTick(eq.price),
        freezeQty: Math.max(1, Math.floor(CASH_ORDER_VALUE_CAP / price)),
        kind: 'EQ',
        underlyingKey: `NSE:${eq.symbol}`,
      });
    }
  }
  return prices;
}

function addIndices(ctx: Ctx): Map<string, number> {
  const prices = new Map<string, number>();
  for (const ix of INDICES) {
    const key = `${ix.exchange}:${ix.symbol}`;
    const tick = ix.price < 100 ? 0.01 : INDEX_TICK;
    const price = jitter(ctx, key, ix.price, tick);
    prices.set(ix.symbol, price);
    ctx.b.addUnderlying({
      key,
      name: ix.symbol,
      basePrice: price,
      tickSize: tick,
      volatility: ix.volatility,
    });
    ctx.b.add({
      symbol: ix.symbol,
      brsymbol: ix.brsymbol,
      name: ix.name,
      exchange: ix.exchange,
      brexchange: ix.exchange,
      expiry: '',
      expiryDate: null,
      strike: -0.01,
      lotsize: 1,
      instrumenttype: 'INDEX',
      tickSize: tick,
      freezeQty: 0,
      kind: 'INDEX',
      underlyingKey: key,
    });
  }
  return prices;
}

interface DerivativeTemplate {
  exchange: 'NFO' | 'BFO' | 'MCX' | 'CDS';
  underlying: string;
  underlyingKey: string;
  lotsize: number;
  freezeQty: number;
}

function addFuture(
  ctx: Ctx,
  t: DerivativeTemplate,
  expiry: string,
  instrumenttype: string,
  tick: number,
): void {
  ctx.b.add({
    symbol: futureSymbol(t.underlying, expiry),
    brsymbol: futureBrSymbol(t.underlying, expiry),
    name: t.underlying,
    exchange: t.exchange,
    brexchange: BROKER_EXCHANGE[t.exchange],
    expiry: formatExpiry(expiry),
    expiryDate: expiry,
    strike: 0,
    lotsize: t.lotsize,
    instrumenttype,
    tickSize: tick,
    freezeQty: t.freezeQty,
    kind: 'FUT',
    underlyingKey: t.underlyingKey,
  });
}

function addOptionChain(
  ctx: Ctx,
  t: DerivativeTemplate,
  expiry: string,
  strikes: readonly number[],
  instrumenttype: string,
  tick: number,
): void {
  const expiryText = formatExpiry(expiry);
  const brexchange = BROKER_EXCHANGE[t.exchange];
  for (const strike of strikes) {
    for (const type of ['CE', 'PE'] as const) {
      ctx.b.push({
        id: ctx.b.nextId(),
        symbol: optionSymbol(t.underlying, expiry, strike, type),
        brsymbol: optionBrSymbol(t.underlying, expiry, strike, type),
        name: t.underlying,
        exchange: t.exchange,
        brexchange,
        token: ctx.b.token(t.exchange),
        expiry: expiryText,
        expiryDate: expiry,
        strike,
        lotsize: t.lotsize,
        instrumenttype,
        tickSize: tick,
        freezeQty: t.freezeQty,
        kind: type,
        underlyingKey: t.underlyingKey,
      });
    }
  }
}

function addIndexDerivatives(ctx: Ctx, spec: IndexDerivativeSpec, prices: Map<string, number>): void {
  const indexExchange: PaperExchange = spec.exchange === 'NFO' ? 'NSE_INDEX' : 'BSE_INDEX';
  const spot = prices.get(spec.symbol);
  if (spot === undefined) throw new Error(`No index ${spec.symbol} for ${spec.exchange} derivatives`);
  const t: DerivativeTemplate = {
    exchange: spec.exchange,
    underlying: spec.symbol,
    underlyingKey: `${indexExchange}:${spec.symbol}`,
    lotsize: spec.lot,
    freezeQty: spec.freezeQty,
  };
  for (const expiry of monthlyExpiries(ctx.today, monthlyRule(spec.exchange), 3)) {
    addFuture(ctx, t, expiry, 'FUTIDX', spec.futTick);
  }
  const { near, far } = indexOptionExpiries(
    spec.exchange,
    ctx.today,
    spec.weeklies,
    spec.quarterlies,
    spec.halfYearlies,
  );
  const nearStrikes = strikeLadder(spot, spec.strikeStep, spec.nearHalfWidth);
  // Long-dated contracts list fewer, wider-spaced strikes.
  const farStrikes = strikeLadder(spot, spec.strikeStep * 2, Math.round(spec.nearHalfWidth * 0.6));
  for (const expiry of near) addOptionChain(ctx, t, expiry, nearStrikes, 'OPTIDX', OPTION_TICK);
  for (const expiry of far) addOptionChain(ctx, t, expiry, farStrikes, 'OPTIDX', OPTION_TICK);
}

function addStockDerivatives(ctx: Ctx, eq: EquitySpec, spot: number): void {
  // Exchange freeze limits for stocks vary; simulated as about Rs 5 crore of notional, >= 20 lots.
  const lots = Math.max(20, Math.floor(CASH_ORDER_VALUE_CAP / (spot * eq.lot)));
  const t: DerivativeTemplate = {
    exchange: 'NFO',
    underlying: eq.symbol,
    underlyingKey: `NSE:${eq.symbol}`,
    lotsize: eq.lot,
    freezeQty: lots * eq.lot,
  };
  const expiries = monthlyExpiries(ctx.today, monthlyRule('NFO'), 3);
  for (const expiry of expiries) addFuture(ctx, t, expiry, 'FUTSTK', equityTick(eq.price));
  const strikes = strikeLadder(spot, stockStrikeStep(spot), STOCK_OPTION_HALF_WIDTH);
  for (const expiry of expiries) addOptionChain(ctx, t, expiry, strikes, 'OPTSTK', OPTION_TICK);
}

function addCommodities(ctx: Ctx): void {
  const spots = new Map<string, number>();
  for (const c of COMMODITIES) {
    const key = `MCX:${c.underlying}`;
    if (!spots.has(key)) {
      const price = jitter(ctx, key, c.basePrice, c.tick);
      spots.set(key, price);
      ctx.b.addUnderlying({
        key,
        name: c.underlying,
        basePrice: price,
        tickSize: c.tick,
        volatility: c.volatility,
      });
    }
  }
  for (const c of COMMODITIES) addCommodity(ctx, c, spots.get(`MCX:${c.underlying}`) ?? c.basePrice);
}

function addCommodity(ctx: Ctx, c: CommoditySpec, spot: number): void {
  const t: DerivativeTemplate = {
    exchange: 'MCX',
    underlying: c.symbol,
    underlyingKey: `MCX:${c.underlying}`,
    lotsize: c.lot,
    freezeQty: c.maxLots * c.lot,
  };
  const futures = monthlyExpiries(ctx.today, mcxRule(c.rule), c.futures, c.months);
  for (const expiry of futures) addFuture(ctx, t, expiry, 'FUTCOM', c.tick);
  if (c.options === 0) return;
  const optionExpiries = futures
    .map(mcxOptionExpiry)
    .filter((d) => d >= ctx.today)
    .slice(0, c.options);
  const strikes = strikeLadder(spot, c.strikeStep, c.halfWidth);
  for (const expiry of optionExpiries) addOptionChain(ctx, t, expiry, strikes, 'OPTFUT', c.optionTick);
}

function addCurrencies(ctx: Ctx): void {
  for (const c of CURRENCIES) {
    const key = `CDS:${c.symbol}`;
    const spot = jitter(ctx, key, c.basePrice, CURRENCY_TICK);
    ctx.b.addUnderlying({
      key,
      name: c.symbol,
      basePrice: spot,
      tickSize: CURRENCY_TICK,
      volatility: c.volatility,
    });
    const t: DerivativeTemplate = {
      exchange: 'CDS',
      underlying: c.symbol,
      underlyingKey: key,
      lotsize: 1,
      freezeQty: c.maxLots,
    };
    const expiries = monthlyExpiries(ctx.today, cdsRule, c.futures);
    for (const expiry of expiries) addFuture(ctx, t, expiry, 'FUTCUR', CURRENCY_TICK);
    const strikes = strikeLadder(spot, c.strikeStep, c.halfWidth);
    for (const expiry of expiries.slice(0, c.options)) {
      addOptionChain(ctx, t, expiry, strikes, 'OPTCUR', CURRENCY_TICK);
    }
  }
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
