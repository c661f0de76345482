// The business rules an order must pass before it is recorded or changed, beyond the input checks
// of validation.ts: funds (the one "Insufficient funds" sentence), the CNC SELL cover, what a modify
// may change, and the price a margin is reckoned at. Pure: the engine supplies the rows.
import type { Instrument } from '../instruments/instrument.js';
import type { EngineResult, OrderInput, OrderModification, PaperOrder } from './engine.js';
import type { NewOrderRow, OrderRow } from './ledger-rows.js';
import { formatMoney, toRupees, toUnits } from './units.js';
import {
  checkQuantity,
  checkStopLimit,
  checkTick,
  normaliseSymbol,
  usesPrice,
  usesTrigger,
} from './validation.js';

/** Statuses of a working order: it may fill, be modified or cancelled. */
export { WORKING_STATUSES as ACTIVE } from '../../shared/order-status.js';

export type Refusal = Extract<EngineResult<PaperOrder>, { ok: false }>;
export const refuse = (status: number, message: string, orderid?: string): Refusal =>
  orderid === undefined ? { ok: false, status, message } : { ok: false, status, message, orderid };

/** The one sentence of a funds refusal (placement and modify), as the sandbox words it. */
export function insufficientFunds(required: number, available: number): string {
  return `Insufficient funds. Required: ₹${formatMoney(required)}, Available: ₹${formatMoney(available)}, Shortage: ₹${formatMoney(required - available)}`;
}

export function marketPriceMissing(symbol: string): string {
  return `Cannot place MARKET order for ${symbol} - unable to fetch current price. Please try again later or use LIMIT order with a specific price.`;
}

/**
 * The real sandbox's CNC SELL check: today's long plus settled holdings must cover `quantity`
 * (other open CNC SELL orders of the symbol reserve nothing).
 */
export function cncSellRefusal(
  symbol: string,
  quantity: number,
  position: number,
  holding: number,
): string | undefined {
  const p = Math.max(position, 0);
  const h = Math.max(holding, 0);
  const available = p + h;
  if (available <= 0) {
    return `Cannot sell ${symbol} in CNC. No positions or holdings available. CNC (delivery) requires existing shares. Use MIS for intraday short selling.`;
  }
  if (quantity > available) {
    return `Cannot sell ${quantity} shares of ${symbol} in CNC. Only ${available} shares available (Position: ${p}, Holdings: ${h})`;
  }
  return undefined;
}

/** Units a margin is reckoned at: the last price for MARKET, the limit for LIMIT, else the trigger. */
export function marginReference(
  o: Pick<OrderRow, 'pricetype' | 'price' | 'trigger_price'>,
  ltp: number,
): number {
  return o.pricetype === 'MARKET' ? ltp : o.pricetype === 'LIMIT' ? o.price : o.trigger_price;
}

/** A new order's row before its checks: open (SL/SL-M trigger pending once accepted), nothing filled. */
export function newOrderRow(
  input: OrderInput,
  inst: Instrument,
  account: string,
  orderid: string,
  now: number,
): NewOrderRow {
  return {
    orderid,
    account,
    strategy: input.strategy,
    exchange: inst.exchange,
    symbol: inst.symbol,
    action: input.action,
    quantity: input.quantity,
    pricetype: input.pricetype,
    product: input.product,
    price: toUnits(input.price),
    trigger_price: toUnits(input.trigger_price),
    disclosed_quantity: input.disclosed_quantity,
    status: 'open',
    filled_quantity: 0,
    fill_value: 0,
    rejection_reason: '',
    margin_blocked: 0,
    claimed: 0,
    created_ms: now,
    updated_ms: now,
  };
}

/** The fields a modify may change (status follows the pricetype), in the order a caller lists them. */
export const MODIFIABLE = [
  'quantity',
  'pricetype',
  'price',
  'trigger_price',
  'disclosed_quantity',
  'status',
] as const;

/** The first field of a modify that names another order than `o` (it may not change), if any. */
function fixedFieldChange(
  o: OrderRow,
  req: OrderModification,
): 'exchange' | 'symbol' | 'action' | 'product' | undefined {
  if (req.exchange !== o.exchange) return 'exchange';
  if (normaliseSymbol(req.symbol) !== o.symbol) return 'symbol';
  if (req.action !== o.action) return 'action';
  if (req.product !== o.product) return 'product';
  return undefined;
}

/**
 * What a modify makes of working order `o`, or why it is refused: quantity, pricetype, price,
 * trigger_price and disclosed_quantity change; a different exchange, symbol, action or product is
 * refused naming the field (those name the order: ignoring them would report a change that never
 * happened). The strategy is only the caller's tag, as for cancelorder. Price or trigger 0 keeps the
 * order's own when its pricetype used one (sandbox). A stop stays triggered once it has fired; a
 * LIMIT or MARKET made a stop waits for its trigger. Funds and CNC cover are the engine's to check.
 */
export function modifiedRow(
  o: OrderRow,
  req: OrderModification,
  inst: Instrument,
  now: number,
): EngineResult<OrderRow> {
  const fixed = fixedFieldChange(o, req);
  if (fixed) {
    return refuse(
      400,
      `modifyorder cannot change ${fixed}: order ${o.orderid} has ${fixed} ${o[fixed]}; cancel it and place a new order`,
    );
  }
  const pricetype = req.pricetype;
  if (req.price > 0 && !usesPrice(pricetype)) return refuse(400, `${pricetype} orders do not accept a price`);
  if (req.trigger_price > 0 && !usesTrigger(pricetype)) {
    return refuse(400, `${pricetype} orders do not accept a trigger_price`);
  }
  const price = !usesPrice(pricetype)
    ? 0
    : req.price > 0
      ? toUnits(req.price)
      : usesPrice(o.pricetype)
        ? o.price
        : 0;
  const trigger = !usesTrigger(pricetype)
    ? 0
    : req.trigger_price > 0
      ? toUnits(req.trigger_price)
      : usesTrigger(o.pricetype)
        ? o.trigger_price
        : 0;
  if (usesPrice(pricetype) && price === 0) return refuse(400, `${pricetype} orders require price`);
  if (usesTrigger(pricetype) && trigger === 0)
    return refuse(400, `${pricetype} orders require trigger_price`);
  const quantity = req.quantity;
  if (quantity <= o.filled_quantity) {
    return refuse(400, `Quantity ${quantity} must exceed the filled quantity ${o.filled_quantity}`);
  }
  const bad =
    checkQuantity(quantity, inst) ??
    (req.price > 0 ? checkTick('Price', req.price, inst) : undefined) ??
    (req.trigger_price > 0 ? checkTick('Trigger price', req.trigger_price, inst) : undefined) ??
    checkStopLimit({ pricetype, action: o.action, price: toRupees(price), trigger_price: toRupees(trigger) });
  if (bad) return refuse(400, bad);
  const stopWaits = usesTrigger(pricetype) && (!usesTrigger(o.pricetype) || o.status === 'trigger pending');
  return {
    ok: true,
    value: {
      ...o,
      quantity,
      pricetype,
      price,
      trigger_price: trigger,
      disclosed_quantity: req.disclosed_quantity,
      status: stopWaits ? 'trigger pending' : 'open',
      updated_ms: now,
    },
  };
}
