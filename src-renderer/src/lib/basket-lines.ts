// Basket legs pasted as text, one order a line: `SYMBOL EXCHANGE ACTION QTY [PRICE]` (a price makes it
// a LIMIT leg, none a MARKET one). Pure, so the review shows every bad line by its number and field
// with the reason, and nothing half-parsed is ever sent. Blank lines and `#` comments are skipped.
import type { Action, BasketLeg, OrderExchange, Product } from '@contract';
import { parseDecimal, toNumber } from '@shared/decimal.js';
import { isOrderExchange, productsFor } from './instrument';

/** The gateway's basket holds at most 100 legs; the desk's saved baskets 50 (settings' BASKET_MAX_LEGS). */
export const MAX_BASKET_LINES = 50;

export type BasketLineField = 'line' | 'symbol' | 'exchange' | 'action' | 'quantity' | 'price';

export interface BasketLineError {
  /** 1-based, as an editor numbers the pasted text. */
  line: number;
  field: BasketLineField;
  /** What was there (empty when the field was missing). */
  text: string;
  reason: string;
}

export interface ParsedBasket {
  legs: BasketLeg[];
  errors: BasketLineError[];
}

// OpenAlgo symbols: letters, digits and & - _ (M&M, BAJAJ-AUTO, NIFTY25NOV2624000CE).
const SYMBOL = /^[A-Z0-9][A-Z0-9&_-]{0,63}$/;
const WHOLE = /^\d+$/;
const ACTIONS: readonly Action[] = ['BUY', 'SELL'];

/** What a line with an error says in one sentence: `Line 3, exchange "NSX": …`. */
export function describeLineError(e: BasketLineError): string {
  const what = e.text === '' ? e.field : `${e.field} "${e.text}"`;
  return `Line ${e.line}, ${what}: ${e.reason}`;
}

/**
 * Parses the pasted text. `product` is the one the legs take when the line names none (the basket's
 * product choice); an exchange that refuses it gets its own usual product (NRML on NFO for CNC).
 */
export function parseBasketLines(text: string, product: Product = 'MIS'): ParsedBasket {
  const legs: BasketLeg[] = [];
  const errors: BasketLineError[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const body = raw.replace(/#.*$/, '').trim();
    if (body === '') return;
    if (legs.length >= MAX_BASKET_LINES) {
      errors.push({
        line,
        field: 'line',
        text: '',
        reason: `a basket holds at most ${MAX_BASKET_LINES} legs`,
      });
      return;
    }
    const r = parseLine(body.split(/[\s,]+/), line, product);
    if ('leg' in r) legs.push(r.leg);
    else errors.push(...r.errors);
  });
  return { legs, errors };
}

function parseLine(
  tokens: string[],
  line: number,
  product: Product,
): { leg: BasketLeg } | { errors: BasketLineError[] } {
  const errors: BasketLineError[] = [];
  const bad = (field: BasketLineField, text: string, reason: string) =>
    errors.push({ line, field, text, reason });
  if (tokens.length < 4) {
    const missing = (['symbol', 'exchange', 'action', 'quantity'] as const)[tokens.length] ?? 'quantity';
    bad(missing, '', `missing: write SYMBOL EXCHANGE ACTION QTY [PRICE]`);
    return { errors };
  }
  if (tokens.length > 5) {
    bad('line', tokens.slice(5).join(' '), 'too many fields: write SYMBOL EXCHANGE ACTION QTY [PRICE]');
    return { errors };
  }
  const [symText = '', exText = '', actText = '', qtyText = '', priceText] = tokens;

  const symbol = symText.toUpperCase();
  if (!SYMBOL.test(symbol)) bad('symbol', symText, 'letters, digits, & - _ only, at most 64');

  const exchange = exText.toUpperCase();
  if (!isOrderExchange(exchange))
    bad(
      'exchange',
      exText,
      exchange.endsWith('_INDEX')
        ? 'an index is quote-only: trade its futures or options'
        : 'not an exchange orders go to (NSE, BSE, NFO, BFO, MCX, CDS, BCD, NCDEX, NCO)',
    );

  const action = actText.toUpperCase() as Action;
  if (!ACTIONS.includes(action)) bad('action', actText, 'must be BUY or SELL');

  let quantity = 0;
  if (!WHOLE.test(qtyText)) bad('quantity', qtyText, 'must be a whole number of shares above 0');
  else {
    quantity = Number(qtyText);
    if (!Number.isSafeInteger(quantity) || quantity <= 0)
      bad('quantity', qtyText, 'must be a whole number of shares above 0');
  }

  let price: number | undefined;
  if (priceText !== undefined) {
    // A minus sign makes a number, not a price: said as the price rule (above 0), not as "not a number".
    const dec = /^-?\d+(\.\d+)?$/.test(priceText) ? parseDecimal(priceText) : undefined;
    if (!dec) bad('price', priceText, 'must be a number such as 905.35');
    else if (dec.int <= 0n) bad('price', priceText, 'must be above 0 (leave it out for a market order)');
    // The wire carries a JSON number; parsed as a decimal first so "1e3" or "9O5" never pass.
    else price = toNumber(dec);
  }

  if (errors.length > 0 || !isOrderExchange(exchange)) return { errors };
  const offered = productsFor(exchange);
  return {
    leg: {
      symbol,
      exchange: exchange as OrderExchange,
      action,
      quantity,
      pricetype: price === undefined ? 'MARKET' : 'LIMIT',
      product: offered.includes(product) ? product : (offered[0] ?? product),
      price: price ?? 0,
      trigger_price: 0,
      disclosed_quantity: 0,
    },
  };
}

/** A leg as a line the parser reads back (for copying a saved basket as text). */
export function legToLine(leg: BasketLeg): string {
  const parts = [leg.symbol, leg.exchange, leg.action, String(leg.quantity)];
  if (leg.pricetype === 'LIMIT' && leg.price > 0) parts.push(String(leg.price));
  return parts.join(' ');
}
