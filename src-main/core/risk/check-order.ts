// Pre-trade checks, pure: limits from settings, lot/tick/freeze from the instrument, the price band
// from the last price. Every reason states the limit and the value in en-IN format. Arithmetic on
// prices is exact (scaled integers), so 100.05 on a 0.05 tick passes and 100.03 does not.
import {
  compareProduct,
  decimalsOf,
  formatMoney,
  formatPercent,
  formatQty,
  isTickMultiple,
  toScaled,
  type PlaceOrderRequest,
  type RiskLimits,
} from '../../contract/index.js';

export type RiskOrder = Pick<
  PlaceOrderRequest,
  'symbol' | 'exchange' | 'action' | 'quantity' | 'pricetype' | 'product' | 'price' | 'trigger_price'
>;

export interface InstrumentRules {
  lotSize: number;
  tickSize: number;
  /** Largest quantity the exchange accepts in one order; absent when unknown. */
  freezeQty?: number;
}

export interface RiskContext {
  limits: Pick<RiskLimits, 'maxQuantityPerOrder' | 'maxValuePerOrder' | 'priceBandPercent'>;
  /** Absent when the instrument is unknown: lot, tick and freeze checks are then left to the exchange. */
  instrument?: InstrumentRules;
  /** Last traded price; the value of a MARKET order and the price band need it. */
  lastPrice?: number;
  /** Set when the limits are an instrument's own (`NSE:SBIN`): the reasons say so. */
  override?: string;
}

export type RiskResult = { ok: true } | { ok: false; reasons: string[] };

/** A price shown with every decimal it has (never rounded into looking valid). */
function exact(value: number, tickSize?: number): string {
  const places = Math.max(decimalsOf(value), tickSize ? decimalsOf(tickSize) : 0, 2);
  return formatMoney(value, 10 ** -places);
}

/** |a − b| · 100 > percent · b, exactly. */
function beyondBand(a: number, b: number, percent: number): boolean {
  const d = Math.max(decimalsOf(a), decimalsOf(b));
  const dp = decimalsOf(percent);
  const diff = toScaled(a, d) - toScaled(b, d);
  const abs = diff < 0n ? -diff : diff;
  return abs * 100n * 10n ** BigInt(dp) > toScaled(percent, dp) * toScaled(b, d);
}

function usesPrice(o: RiskOrder): boolean {
  return o.pricetype === 'LIMIT' || o.pricetype === 'SL';
}
function usesTrigger(o: RiskOrder): boolean {
  return o.pricetype === 'SL' || o.pricetype === 'SL-M';
}

/** The price the order's value is judged at: its own price, its trigger, or the market. */
function referencePrice(o: RiskOrder, lastPrice?: number): number | undefined {
  if (usesPrice(o)) return o.price;
  if (o.pricetype === 'SL-M') return o.trigger_price;
  return lastPrice;
}

export function checkOrder(order: RiskOrder, ctx: RiskContext): RiskResult {
  const reasons: string[] = [];
  const { limits, instrument, lastPrice } = ctx;
  const yours = ctx.override ? `your ${ctx.override} limit` : 'your limit';
  const tick = instrument?.tickSize;
  const qty = order.quantity;

  if (!Number.isInteger(qty) || qty <= 0)
    reasons.push(`Quantity ${formatQty(qty)} must be a whole number above 0`);
  if (qty > limits.maxQuantityPerOrder)
    reasons.push(
      `Quantity ${formatQty(qty)} exceeds ${yours} of ${formatQty(limits.maxQuantityPerOrder)} per order`,
    );
  if (instrument?.freezeQty !== undefined && instrument.freezeQty > 0 && qty > instrument.freezeQty)
    reasons.push(
      `Quantity ${formatQty(qty)} exceeds the exchange freeze quantity of ${formatQty(instrument.freezeQty)} for ${order.symbol}; split the order`,
    );
  if (instrument && instrument.lotSize > 1 && qty % instrument.lotSize !== 0)
    reasons.push(
      `Quantity ${formatQty(qty)} is not a multiple of the lot size ${formatQty(instrument.lotSize)}`,
    );

  const prices: { label: string; value: number }[] = [];
  if (usesPrice(order)) {
    if (order.price > 0) prices.push({ label: 'Price', value: order.price });
    else reasons.push(`A ${order.pricetype} order needs a price above ${formatMoney(0)}`);
  }
  if (usesTrigger(order)) {
    if (order.trigger_price > 0) prices.push({ label: 'Trigger price', value: order.trigger_price });
    else reasons.push(`A ${order.pricetype} order needs a trigger price above ${formatMoney(0)}`);
  }

  for (const p of prices) {
    if (tick !== undefined && tick > 0 && !isTickMultiple(p.value, tick))
      reasons.push(`${p.label} ${exact(p.value, tick)} is not a multiple of the tick size ${exact(tick)}`);
  }

  if (order.pricetype === 'SL' && order.price > 0 && order.trigger_price > 0) {
    // A stop-limit BUY triggers on the way up, so its limit must be at or above the trigger.
    const wrong =
      order.action === 'BUY' ? order.trigger_price > order.price : order.trigger_price < order.price;
    if (wrong)
      reasons.push(
        `For a ${order.action} SL order the trigger price ${exact(order.trigger_price, tick)} must be ${order.action === 'BUY' ? 'at or below' : 'at or above'} the price ${exact(order.price, tick)}`,
      );
  }

  if (limits.priceBandPercent > 0 && prices.length) {
    if (lastPrice === undefined || !(lastPrice > 0))
      reasons.push(
        `The price band of ${formatPercent(limits.priceBandPercent)} cannot be checked: no last price for ${order.symbol}`,
      );
    else
      for (const p of prices)
        if (beyondBand(p.value, lastPrice, limits.priceBandPercent))
          reasons.push(
            `${p.label} ${exact(p.value, tick)} is ${formatPercent((Math.abs(p.value - lastPrice) / lastPrice) * 100)} away from the last price ${exact(lastPrice, tick)}; ${yours} is ${formatPercent(limits.priceBandPercent)}`,
          );
  }

  const ref = referencePrice(order, lastPrice);
  if (ref === undefined || !(ref > 0)) {
    // Fail safe: a MARKET order whose value cannot be known is not sent blind past a value limit.
    if (order.pricetype === 'MARKET')
      reasons.push(
        `Order value cannot be checked against ${yours} of ${formatMoney(limits.maxValuePerOrder)}: no last price for ${order.symbol}`,
      );
  } else if (qty > 0 && compareProduct(qty, ref, limits.maxValuePerOrder) > 0) {
    reasons.push(
      `Order value ${formatMoney(qty * ref)} exceeds ${yours} of ${formatMoney(limits.maxValuePerOrder)}`,
    );
  }

  return reasons.length ? { ok: false, reasons } : { ok: true };
}
