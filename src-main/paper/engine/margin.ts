// Margin rules (gateway-behaviour §11.1, §11.2 step 8), in units of ₹0.0001.
//  - Equity (NSE/BSE): MIS at 5× leverage, CNC (and NRML, which validation refuses there) at 1×.
//  - Futures: 10×. Options: full premium both ways (the sandbox default option_sell_leverage = 1;
//    a SPAN-like short-option margin would need the underlying and is out of scope).
//  - An order only blocks margin for the quantity that opens or extends exposure: the part that
//    reduces an existing opposite position blocks nothing; a CNC SELL blocks nothing (it sells owned
//    shares).
//  - An open position holds ceil(|cost| / leverage); after each fill the position's margin is set
//    to that figure and the filled part of the order's block is released, so blocked margin always
//    equals Σ open-position requirements + Σ unfilled-order blocks.
import type { Product } from '../../contract/index.js';
import type { Instrument } from '../instruments/instrument.js';
import { ceilDiv } from './units.js';

export interface LeverageConfig {
  equityMis: number;
  equityCnc: number;
  futures: number;
  optionBuy: number;
  optionSell: number;
}

export const DEFAULT_LEVERAGE: LeverageConfig = {
  equityMis: 5,
  equityCnc: 1,
  futures: 10,
  optionBuy: 1,
  optionSell: 1,
};

/** Leverage of a long (`long` true) or short exposure in this instrument and product. */
export function leverageFor(
  lev: LeverageConfig,
  inst: Pick<Instrument, 'kind'> | undefined,
  product: Product,
  long: boolean,
): number {
  switch (inst?.kind) {
    case 'FUT':
      return lev.futures;
    case 'CE':
    case 'PE':
      return long ? lev.optionBuy : lev.optionSell;
    default:
      return product === 'MIS' ? lev.equityMis : lev.equityCnc;
  }
}

/** Margin an open position of signed `quantity` and signed `cost` holds. */
export function positionMargin(
  lev: LeverageConfig,
  inst: Pick<Instrument, 'kind'> | undefined,
  product: Product,
  quantity: number,
  cost: number,
): number {
  if (quantity === 0) return 0;
  // A short CNC leg only arises from selling owned shares twice over; it is not a margin short.
  if (product === 'CNC' && quantity < 0) return 0;
  return ceilDiv(Math.abs(cost), leverageFor(lev, inst, product, quantity > 0));
}

/**
 * Margin to block when placing: the opening part of `quantity` (beyond what closes the current
 * opposite position) valued at `refPrice` units.
 */
export function orderMargin(
  lev: LeverageConfig,
  inst: Pick<Instrument, 'kind'> | undefined,
  product: Product,
  buy: boolean,
  quantity: number,
  refPrice: number,
  currentPosition: number,
): number {
  if (!buy && product === 'CNC') return 0;
  const opposite = buy ? currentPosition < 0 : currentPosition > 0;
  const opening = opposite ? Math.max(0, quantity - Math.abs(currentPosition)) : quantity;
  if (opening === 0) return 0;
  return ceilDiv(opening * refPrice, leverageFor(lev, inst, product, buy));
}

/**
 * The part of an order's `quantity` that reduces an opposite `position` (so blocks nothing): only
 * what other working orders of the same side have not already claimed (`claimedByOthers`), or
 * several orders could each pass the funds check as "reducing" the same position.
 */
export function reducingQuantity(
  buy: boolean,
  quantity: number,
  position: number,
  claimedByOthers: number,
): number {
  if (!(buy ? position < 0 : position > 0)) return 0;
  return Math.min(quantity, Math.max(0, Math.abs(position) - claimedByOthers));
}
