// Pre-trade checks, pure: limits from settings, lot/tick/freeze from the instrument, the price band
// from the last price. Every reason states the limit and the value in en-IN format. The checks and
// the reasons the ticket words alike are shared/order-checks.ts, exact, so 100.05 on a 0.05 tick
// passes and 100.03 does not.
import type { PlaceOrderRequest, RiskLimits } from '../../contract/index.js';
import { exactOf, mulDec } from '../../shared/decimal.js';
import { formatMoney, formatPercent, formatQty } from '../../shared/format.js';
import {
  bandDistance,
  bandReason,
  exactPrice,
  isBeyondBand,
  isOffLot,
  isOnTick,
  isOverFreeze,
  isOverValue,
  isStopSideWrong,
  maxQuantityReason,
  referencePrice,
  stopSideReason,
  tickOf,
  usesPrice,
  usesTrigger,
  valueReason,
  valueUnknownReason,
} from '../../shared/order-checks.js';

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

/** A price in a reason, with the rupee sign and every decimal it has (never rounded into looking valid). */
const exact = (value: number, tickSize?: number): string => exactPrice(value, tickSize, true);

export function checkOrder(order: RiskOrder, ctx: RiskContext): RiskResult {
  const reasons: string[] = [];
  const { limits, instrument, lastPrice } = ctx;
  const yours = ctx.override ? `your ${ctx.override} limit` : 'your limit';
  const tick = instrument?.tickSize;
  const qty = order.quantity;

  if (!Number.isInteger(qty) || qty <= 0)
    reasons.push(`Quantity ${formatQty(qty)} must be a whole number above 0`);
  if (qty > limits.maxQuantityPerOrder)
    reasons.push(maxQuantityReason(qty, limits.maxQuantityPerOrder, yours));
  if (instrument && isOverFreeze(qty, instrument.freezeQty))
    reasons.push(
      `Quantity ${formatQty(qty)} exceeds the exchange freeze quantity of ${formatQty(instrument.freezeQty ?? 0)} for ${order.symbol}; split the order`,
    );
  if (instrument && isOffLot(qty, instrument.lotSize))
    reasons.push(
      `Quantity ${formatQty(qty)} is not a multiple of the lot size ${formatQty(instrument.lotSize)}`,
    );

  const prices: { label: string; value: number }[] = [];
  if (usesPrice(order.pricetype)) {
    if (order.price > 0) prices.push({ label: 'Price', value: order.price });
    else reasons.push(`A ${order.pricetype} order needs a price above ${formatMoney(0)}`);
  }
  if (usesTrigger(order.pricetype)) {
    if (order.trigger_price > 0) prices.push({ label: 'Trigger price', value: order.trigger_price });
    else reasons.push(`A ${order.pricetype} order needs a trigger price above ${formatMoney(0)}`);
  }

  const tickDec = tickOf(tick);
  for (const p of prices) {
    if (tick !== undefined && tickDec && !isOnTick(exactOf(p.value), tickDec))
      reasons.push(`${p.label} ${exact(p.value, tick)} is not a multiple of the tick size ${exact(tick)}`);
  }

  if (order.pricetype === 'SL' && order.price > 0 && order.trigger_price > 0) {
    if (isStopSideWrong(order.action, exactOf(order.trigger_price), exactOf(order.price)))
      reasons.push(stopSideReason(order.action, exact(order.trigger_price, tick), exact(order.price, tick)));
  }

  if (limits.priceBandPercent > 0 && prices.length) {
    if (lastPrice === undefined || !(lastPrice > 0))
      reasons.push(
        `The price band of ${formatPercent(limits.priceBandPercent, { signed: false })} cannot be checked: no last price for ${order.symbol}`,
      );
    else {
      const last = exactOf(lastPrice);
      const band = exactOf(limits.priceBandPercent);
      for (const p of prices) {
        const value = exactOf(p.value);
        if (isBeyondBand(value, last, band))
          reasons.push(
            bandReason(
              p.label,
              exact(p.value, tick),
              bandDistance(value, last),
              exact(lastPrice, tick),
              yours,
              limits.priceBandPercent,
            ),
          );
      }
    }
  }

  const ref = referencePrice(order.pricetype, order.price, order.trigger_price, lastPrice);
  if (ref === undefined || !(ref > 0)) {
    // Fail safe: a MARKET order whose value cannot be known is not sent blind past a value limit.
    if (order.pricetype === 'MARKET')
      reasons.push(valueUnknownReason(limits.maxValuePerOrder, yours, order.symbol));
  } else if (qty > 0) {
    const value = mulDec(exactOf(qty), exactOf(ref));
    if (isOverValue(value, limits.maxValuePerOrder))
      reasons.push(valueReason(value, limits.maxValuePerOrder, yours));
  }

  return reasons.length ? { ok: false, reasons } : { ok: true };
}
