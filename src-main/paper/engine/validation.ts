// Input checks that refuse an order before it exists (HTTP 400, nothing recorded). Messages are the
// real sandbox's where it has one (gateway-behaviour §11.2, sandbox/order_manager.py).
import type { Instrument } from '../instruments/instrument.js';
import type { PriceType } from '../../contract/index.js';
import type { OrderInput } from './engine.js';
import { formatPrice, tickUnits, toUnitsExact } from './units.js';

const EQUITY_EXCHANGES = new Set(['NSE', 'BSE']);
/** Exchanges where quantities are in lots and CNC is refused (sandbox list). */
export const DERIVATIVE_EXCHANGES = new Set(['NFO', 'BFO', 'MCX', 'CDS', 'BCD', 'NCDEX', 'NCO']);

// The master's spelling of a request symbol, one rule for every endpoint (market data too): a
// lower-case symbol must never read another (empty) position.
export { normaliseSymbol } from '../instruments/symbols.js';

/** Rules that need no instrument: product/exchange and the price fields each price type needs. */
export function checkShape(input: OrderInput): string | undefined {
  const { exchange, product, pricetype } = input;
  if (EQUITY_EXCHANGES.has(exchange) && product === 'NRML') {
    return `NRML product not allowed for ${exchange} equity segment. Use CNC for delivery or MIS for intraday.`;
  }
  if (DERIVATIVE_EXCHANGES.has(exchange) && product === 'CNC') {
    return `CNC product not allowed for ${exchange} derivatives segment. Use NRML for carryforward or MIS for intraday.`;
  }
  if ((pricetype === 'LIMIT' || pricetype === 'SL') && !(input.price > 0))
    return `${pricetype} orders require price`;
  if ((pricetype === 'SL' || pricetype === 'SL-M') && !(input.trigger_price > 0)) {
    return `${pricetype} orders require trigger_price`;
  }
  return undefined;
}

/** LIMIT and SL orders carry a limit price. */
export const usesPrice = (t: PriceType): boolean => t === 'LIMIT' || t === 'SL';
/** SL and SL-M orders carry a trigger price. */
export const usesTrigger = (t: PriceType): boolean => t === 'SL' || t === 'SL-M';

/** Drops the price fields a price type ignores (§11.2 step 2): MARKET/SL-M price, MARKET/LIMIT trigger. */
export function normalise(input: OrderInput): OrderInput {
  return {
    ...input,
    price: usesPrice(input.pricetype) ? input.price : 0,
    trigger_price: usesTrigger(input.pricetype) ? input.trigger_price : 0,
  };
}

/** Quantity rules of an instrument: lot multiples on derivative exchanges, freeze quantity. */
export function checkQuantity(quantity: number, inst: Instrument): string | undefined {
  if (DERIVATIVE_EXCHANGES.has(inst.exchange) && inst.lotsize > 1 && quantity % inst.lotsize !== 0) {
    return `Quantity must be in multiples of lot size ${inst.lotsize}`;
  }
  if (inst.freezeQty > 0 && quantity > inst.freezeQty) {
    return `Quantity ${quantity} exceeds the freeze quantity ${inst.freezeQty} for ${inst.symbol}; use splitorder to send it in parts`;
  }
  return undefined;
}

/** A price must sit on the instrument's tick grid; compared in integer units, never floats. */
export function checkTick(
  label: 'Price' | 'Trigger price',
  value: number,
  inst: Instrument,
): string | undefined {
  if (value === 0) return undefined;
  const units = toUnitsExact(value);
  const tick = tickUnits(inst.tickSize);
  if (units === undefined || units % tick !== 0) {
    return `${label} ${formatPrice(value)} is not a multiple of tick size ${formatPrice(inst.tickSize)}`;
  }
  return undefined;
}

/** Every instrument-level check of a normalised order; undefined when it may be placed. */
export function checkInstrument(input: OrderInput, inst: Instrument | undefined): string | undefined {
  if (!inst) return `Symbol ${input.symbol} not found on ${input.exchange}`;
  if (inst.kind === 'INDEX')
    return `${inst.symbol} is an index and cannot be traded; trade its futures or options`;
  return (
    checkQuantity(input.quantity, inst) ??
    checkTick('Price', input.price, inst) ??
    checkTick('Trigger price', input.trigger_price, inst) ??
    checkStopLimit(input)
  );
}

/** An SL order's limit must allow it to fill once triggered. */
export function checkStopLimit(
  input: Pick<OrderInput, 'pricetype' | 'action' | 'price' | 'trigger_price'>,
): string | undefined {
  if (input.pricetype !== 'SL') return undefined;
  if (input.action === 'BUY' && input.trigger_price > input.price) {
    return `Trigger price ${formatPrice(input.trigger_price)} must not be above the limit price ${formatPrice(input.price)} for a BUY SL order`;
  }
  if (input.action === 'SELL' && input.trigger_price < input.price) {
    return `Trigger price ${formatPrice(input.trigger_price)} must not be below the limit price ${formatPrice(input.price)} for a SELL SL order`;
  }
  return undefined;
}
