// GTT requests from what the trader typed: a SINGLE trigger (a stoploss below the last price or a
// target above it) or an OCO (a stoploss and a target), CNC or NRML only. Every refusal is a sentence
// for the trader; the core checks again (and the gateway after it).
import type { GttModifyIpcInput, GttPlaceIpcInput, GttRecord } from '@contract';

export type GttType = 'SINGLE' | 'OCO';
export type GttProduct = 'CNC' | 'NRML';
export const GTT_PRODUCTS: readonly GttProduct[] = ['CNC', 'NRML'];

/** The GTT fields as typed. */
export interface GttForm {
  type: GttType;
  product: GttProduct;
  quantityText: string;
  /** SINGLE: its trigger and its leg's limit price. */
  triggerText: string;
  priceText: string;
  /** OCO: the stoploss trigger and leg price, the target trigger and leg price. */
  slTriggerText: string;
  slPriceText: string;
  tgTriggerText: string;
  tgPriceText: string;
}

/** The form's six price boxes (the fields that are typed prices). */
export type GttPriceField = Exclude<keyof GttForm, 'type' | 'product' | 'quantityText'>;

export interface GttTarget {
  symbol: string;
  exchange: string;
  action: 'BUY' | 'SELL';
  lastPrice?: number | undefined;
}

export type GttBuilt<T> = { ok: true; request: T } | { ok: false; message: string };

const price = (text: string): number | undefined => {
  const t = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d+)?$/.test(t)) return undefined;
  const n = Number(t);
  return n > 0 ? n : undefined;
};

/** The request a form makes for `target`, or why it cannot be sent, in words. */
export function buildGtt(form: GttForm, target: GttTarget | undefined): GttBuilt<GttPlaceIpcInput> {
  if (!target) return { ok: false, message: 'Choose an instrument first (/ to search)' };
  const q = form.quantityText.trim().replace(/,/g, '');
  const quantity = /^\d+$/.test(q) ? Number(q) : 0;
  if (quantity <= 0) return { ok: false, message: 'Quantity must be a whole number above 0' };
  const base = {
    exchange: target.exchange as GttPlaceIpcInput['exchange'],
    symbol: target.symbol,
    action: target.action,
    product: form.product,
    quantity,
    pricetype: 'LIMIT' as const,
  };
  if (form.type === 'SINGLE') {
    const trigger = price(form.triggerText);
    if (trigger === undefined) return { ok: false, message: 'Enter a trigger price above 0' };
    const limit = price(form.priceText);
    if (limit === undefined) return { ok: false, message: 'Enter the limit price the order is placed at' };
    if (target.lastPrice !== undefined && trigger === target.lastPrice)
      return { ok: false, message: 'The trigger is the last price: it would fire at once' };
    // A trigger under the last price fires on a fall (stoploss), one over it on a rise (target).
    const below = target.lastPrice === undefined || trigger < target.lastPrice;
    return {
      ok: true,
      request: {
        ...base,
        trigger_type: 'SINGLE',
        price: limit,
        ...(below ? { triggerprice_sl: trigger } : { triggerprice_tg: trigger }),
      },
    };
  }
  const sl = price(form.slTriggerText);
  const slPrice = price(form.slPriceText);
  const tg = price(form.tgTriggerText);
  const tgPrice = price(form.tgPriceText);
  if (sl === undefined) return { ok: false, message: 'Enter the stoploss trigger' };
  if (slPrice === undefined) return { ok: false, message: 'Enter the stoploss limit price' };
  if (tg === undefined) return { ok: false, message: 'Enter the target trigger' };
  if (tgPrice === undefined) return { ok: false, message: 'Enter the target limit price' };
  if (sl >= tg) return { ok: false, message: 'The stoploss trigger must be below the target trigger' };
  const ltp = target.lastPrice;
  if (ltp !== undefined && (sl >= ltp || tg <= ltp))
    return { ok: false, message: 'The last price must lie between the stoploss and the target triggers' };
  return {
    ok: true,
    request: {
      ...base,
      trigger_type: 'OCO',
      price: ltp ?? slPrice,
      triggerprice_sl: sl,
      stoploss: slPrice,
      triggerprice_tg: tg,
      target: tgPrice,
    },
  };
}

const text = (n: number | undefined): string => (n === undefined ? '' : String(n));
/** A price as the ticket shows one: two decimals at least (870.30, not 870.3). */
const priceText = (n: number | undefined): string =>
  n === undefined ? '' : Number.isInteger(Math.round(n * 100 * 1e6) / 1e6) ? n.toFixed(2) : String(n);

/** The form a book row is modified from: its current triggers, prices and quantity. */
export function formOf(row: GttRecord): GttForm {
  const oco = row.trigger_type.toLowerCase() !== 'single';
  const leg = row.legs[0];
  return {
    type: oco ? 'OCO' : 'SINGLE',
    product: leg?.product === 'NRML' ? 'NRML' : 'CNC',
    quantityText: text(leg?.quantity),
    triggerText: oco ? '' : priceText(row.trigger_prices[0]),
    priceText: oco ? '' : priceText(leg?.price),
    slTriggerText: oco ? priceText(row.trigger_prices[0]) : '',
    slPriceText: oco ? priceText(row.legs[0]?.price) : '',
    tgTriggerText: oco ? priceText(row.trigger_prices[1]) : '',
    tgPriceText: oco ? priceText(row.legs[1]?.price) : '',
  };
}

/** The modify request for a row from its edited form (its type and side stay). */
export function buildModify(row: GttRecord, form: GttForm): GttBuilt<GttModifyIpcInput> {
  const action = row.legs[0]?.action.toUpperCase() === 'SELL' ? 'SELL' : 'BUY';
  const built = buildGtt(form, {
    symbol: row.symbol,
    exchange: row.exchange,
    action,
    lastPrice: row.last_price > 0 ? row.last_price : undefined,
  });
  if (!built.ok) return built;
  return {
    ok: true,
    request: {
      ...built.request,
      trigger_id: row.trigger_id,
      ...(row.strategy ? { strategy: row.strategy } : {}),
    },
  };
}

/** `Single` or `OCO`, as the pane and the confirmations say it. */
export function gttTypeText(row: Pick<GttRecord, 'trigger_type'>): string {
  return row.trigger_type.toLowerCase() === 'single' ? 'Single' : 'OCO';
}
