// Over 300 lines: the ticket's rules field by field, side by side, as lib/ticket-rules.ts holds them.
import { describe, expect, it } from 'vitest';
import {
  buildPlaceRequest,
  convertQuantity,
  estimateOrder,
  fieldsFor,
  stepPrice,
  stepQuantity,
  validateTicket,
  type TicketContext,
  type TicketDraft,
  type TicketLimits,
} from '../../../src-renderer/src/lib/ticket-rules';
import { toPlainText } from '../../../src-main/shared/decimal.js';
import { NIFTY_CE, NIFTY_FUT, NIFTY_INDEX, SBIN, USDINR_FUT } from '../../support/component/instruments';

const LIMITS: TicketLimits = {
  maxQuantityPerOrder: 10_000,
  maxValuePerOrder: 10_00_000,
  priceBandPercent: 5,
};

function draft(over: Partial<TicketDraft> = {}): TicketDraft {
  return {
    side: 'BUY',
    quantityText: '10',
    quantityUnit: 'shares',
    product: 'MIS',
    priceType: 'LIMIT',
    priceText: '905.30',
    triggerText: '',
    disclosedText: '',
    ...over,
  };
}
const sbin: TicketContext = { instrument: SBIN, limits: LIMITS, lastPrice: 905.3 };
const nifty: TicketContext = {
  instrument: NIFTY_FUT,
  limits: { ...LIMITS, maxValuePerOrder: 10_00_00_000 },
  lastPrice: 24000,
};

/** [code, message] of each issue, the shape a reader of the ticket sees. */
const reasons = (d: TicketDraft, ctx: TicketContext) =>
  validateTicket(d, ctx).map((i) => [i.code, i.message]);

describe('validation as you type, each reason in words', () => {
  it('passes a sound order', () => {
    expect(validateTicket(draft(), sbin)).toEqual([]);
  });

  it('requires a quantity and a positive whole number', () => {
    expect(reasons(draft({ quantityText: '' }), sbin)).toEqual([['required', 'Quantity is required']]);
    for (const q of ['1.5', '-3', 'abc', '1e3'])
      expect(reasons(draft({ quantityText: q }), sbin)).toEqual([
        ['not_whole', 'Quantity must be a positive whole number'],
      ]);
    expect(reasons(draft({ quantityText: '0' }), sbin)).toEqual([
      ['not_positive', 'Quantity must be above 0'],
    ]);
    expect(reasons(draft({ quantityText: '0', quantityUnit: 'lots', priceText: '24000' }), nifty)).toEqual([
      ['not_positive', 'Lots must be above 0'],
    ]);
  });

  it('requires a lot multiple on derivatives', () => {
    expect(reasons(draft({ quantityText: '100', priceText: '24000' }), nifty)).toEqual([
      ['lot_multiple', 'Quantity must be a multiple of the lot size 65'],
    ]);
    expect(
      validateTicket(draft({ quantityText: '130', priceText: '24000' }), { ...nifty, limits: undefined }),
    ).toEqual([]);
  });

  it('refuses a price off the tick, naming the tick', () => {
    expect(reasons(draft({ priceText: '905.33' }), sbin)).toEqual([
      ['tick', 'Price must be a multiple of the tick 0.05'],
    ]);
    expect(reasons(draft({ priceText: '83.2510', quantityText: '1' }), { instrument: USDINR_FUT })).toEqual([
      ['tick', 'Price must be a multiple of the tick 0.0025'],
    ]);
    expect(
      validateTicket(draft({ priceText: '83.2525', quantityText: '1' }), { instrument: USDINR_FUT }),
    ).toEqual([]);
  });

  it('offers a split order above the freeze quantity', () => {
    const d = draft({ quantityText: '1950', priceText: '24000', product: 'NRML' });
    expect(reasons(d, { ...nifty, limits: undefined })).toEqual([
      ['freeze', 'Quantity 1,950 exceeds the freeze quantity 1,800: use a split order'],
    ]);
  });

  it('applies the max quantity and max value of the risk settings', () => {
    const limits = { ...LIMITS, maxQuantityPerOrder: 500, maxValuePerOrder: 1_00_000 };
    expect(reasons(draft({ quantityText: '600' }), { ...sbin, limits })).toEqual([
      ['max_quantity', 'Quantity 600 exceeds your limit of 500 per order'],
      ['max_value', 'Order value ₹5,43,180.00 exceeds your limit of ₹1,00,000.00'],
    ]);
    // Exactly at the limit passes (compared exactly, not in floats).
    expect(
      validateTicket(draft({ quantityText: '100', priceText: '1000' }), { ...sbin, lastPrice: 1000, limits }),
    ).toEqual([]);
  });

  it('will not judge a MARKET order blind against the value limit', () => {
    expect(reasons(draft({ priceType: 'MARKET' }), { ...sbin, lastPrice: undefined })).toEqual([
      [
        'value_unknown',
        'Order value cannot be checked against your limit of ₹10,00,000.00: no last price for SBIN yet',
      ],
    ]);
    expect(validateTicket(draft({ priceType: 'MARKET' }), sbin)).toEqual([]);
  });

  it('requires price and trigger where the price type uses them', () => {
    expect(reasons(draft({ priceText: '' }), sbin)).toEqual([
      ['required', 'Price is required for a LIMIT order'],
    ]);
    expect(reasons(draft({ priceType: 'SL-M', triggerText: '' }), sbin)).toEqual([
      ['required', 'Trigger price is required for an SL-M order'],
    ]);
    expect(reasons(draft({ priceText: '0' }), sbin)).toEqual([['not_positive', 'Price must be above 0']]);
    expect(reasons(draft({ priceText: '9o5' }), sbin)).toEqual([['not_number', 'Price must be a number']]);
  });

  it('says a negative price must be above 0, not that it is not a number', () => {
    expect(reasons(draft({ priceText: '-905.30' }), sbin)).toEqual([
      ['not_positive', 'Price must be above 0'],
    ]);
    expect(reasons(draft({ priceText: ' - 5' }), sbin)).toEqual([['not_positive', 'Price must be above 0']]);
    expect(reasons(draft({ priceType: 'SL-M', triggerText: '-.5' }), sbin)).toEqual([
      ['not_positive', 'Trigger price must be above 0'],
    ]);
    expect(reasons(draft({ priceText: '--5' }), sbin)).toEqual([['not_number', 'Price must be a number']]);
    expect(reasons(draft({ priceText: '-' }), sbin)).toEqual([['not_number', 'Price must be a number']]);
  });

  it('checks the trigger against the price on the right side for SL', () => {
    const buy = draft({ priceType: 'SL', priceText: '905.00', triggerText: '905.50' });
    expect(reasons(buy, sbin)).toEqual([
      ['stop_side', 'For a BUY SL order the trigger price 905.50 must be at or below the price 905.00'],
    ]);
    expect(validateTicket({ ...buy, triggerText: '904.50' }, sbin)).toEqual([]);
    const sell = draft({ side: 'SELL', priceType: 'SL', priceText: '905.00', triggerText: '904.50' });
    expect(reasons(sell, sbin)).toEqual([
      ['stop_side', 'For a SELL SL order the trigger price 904.50 must be at or above the price 905.00'],
    ]);
    expect(validateTicket({ ...sell, triggerText: '905.50' }, sbin)).toEqual([]);
  });

  it('flags a price beyond the band from the last price', () => {
    expect(reasons(draft({ priceText: '1000' }), sbin)).toEqual([
      ['price_band', 'Price 1,000.00 is 10.46% away from the last price 905.30; your limit is 5.00%'],
    ]);
  });

  it('refuses a product the exchange does not offer, and index instruments', () => {
    expect(reasons(draft({ product: 'NRML' }), sbin)).toEqual([
      ['product', 'NRML is not offered on NSE: choose CNC or MIS'],
    ]);
    expect(reasons(draft({ product: 'CNC', quantityText: '65', priceText: '24000' }), nifty)).toEqual([
      ['product', 'CNC is not offered on NFO: choose NRML or MIS'],
    ]);
    expect(reasons(draft(), { instrument: NIFTY_INDEX })).toEqual([
      ['not_tradable', 'NIFTY on NSE_INDEX is quote-only: trade its futures or options'],
    ]);
    expect(reasons(draft(), {})).toEqual([['no_instrument', 'Choose an instrument (/ to search)']]);
  });

  it('checks the disclosed quantity on equity limit orders', () => {
    expect(reasons(draft({ disclosedText: '11' }), sbin)).toEqual([
      ['disclosed_above_quantity', 'Disclosed quantity cannot exceed the quantity'],
    ]);
    expect(reasons(draft({ disclosedText: '2.5' }), sbin)).toEqual([
      ['not_whole', 'Disclosed quantity must be a whole number'],
    ]);
    expect(validateTicket(draft({ disclosedText: '5' }), sbin)).toEqual([]);
  });
});

describe('fields per price type', () => {
  it('shows price for LIMIT/SL, trigger for SL/SL-M, disclosed for LIMIT/SL on equity', () => {
    expect(fieldsFor('MARKET', 'NSE')).toEqual({ price: false, trigger: false, disclosed: false });
    expect(fieldsFor('LIMIT', 'NSE')).toEqual({ price: true, trigger: false, disclosed: true });
    expect(fieldsFor('SL', 'NSE')).toEqual({ price: true, trigger: true, disclosed: true });
    expect(fieldsFor('SL-M', 'NSE')).toEqual({ price: false, trigger: true, disclosed: false });
    expect(fieldsFor('LIMIT', 'NFO')).toEqual({ price: true, trigger: false, disclosed: false });
  });

  it('ignores the text of fields the price type does not use', () => {
    const d = draft({ priceType: 'MARKET', priceText: 'junk', triggerText: 'junk', disclosedText: 'junk' });
    expect(validateTicket(d, sbin)).toEqual([]);
    expect(buildPlaceRequest(d, sbin)).toMatchObject({ price: 0, trigger_price: 0, disclosed_quantity: 0 });
  });
});

describe('shares and lots', () => {
  it('converts lots to shares and whole lots back', () => {
    expect(convertQuantity('3', 'lots', 'shares', 65)).toEqual({ ok: true, text: '195' });
    expect(convertQuantity('195', 'shares', 'lots', 65)).toEqual({ ok: true, text: '3' });
    expect(convertQuantity('', 'shares', 'lots', 65)).toEqual({ ok: true, text: '' });
  });

  it('refuses to turn a part lot into lots', () => {
    expect(convertQuantity('100', 'shares', 'lots', 65)).toEqual({
      ok: false,
      message: '100 is not a whole number of lots (lot size 65)',
    });
  });

  it('orders the shares the lots stand for', () => {
    const d = draft({ quantityText: '2', quantityUnit: 'lots', priceText: '24000', product: 'NRML' });
    expect(validateTicket(d, nifty)).toEqual([]);
    expect(buildPlaceRequest(d, nifty)?.quantity).toBe(130);
  });

  it('steps a lot at a time, onto the lot grid', () => {
    expect(stepQuantity('65', 'shares', 65, 1)).toBe('130');
    expect(stepQuantity('130', 'shares', 65, -1)).toBe('65');
    expect(stepQuantity('65', 'shares', 65, -1)).toBe('65');
    expect(stepQuantity('100', 'shares', 65, 1)).toBe('130');
    expect(stepQuantity('100', 'shares', 65, -1)).toBe('65');
    expect(stepQuantity('2', 'lots', 65, 1)).toBe('3');
    expect(stepQuantity('', 'shares', 65, 1)).toBe('65');
  });
});

describe('tick stepping', () => {
  it('steps one tick, exactly', () => {
    expect(stepPrice('905.30', 0.05, 1)).toBe('905.35');
    expect(stepPrice('905.30', 0.05, -1)).toBe('905.25');
    expect(stepPrice('0.1', 0.05, 1)).toBe('0.15');
    expect(stepPrice('83.2500', 0.0025, 1)).toBe('83.2525');
    expect(stepPrice('24000', 0.1, -1)).toBe('23999.90');
  });

  it('moves an off-tick price to the next tick in that direction', () => {
    expect(stepPrice('905.33', 0.05, 1)).toBe('905.35');
    expect(stepPrice('905.33', 0.05, -1)).toBe('905.30');
  });

  it('starts an empty field from the last price on the tick, and never goes below one tick', () => {
    expect(stepPrice('', 0.05, 1, 905.32)).toBe('905.30');
    expect(stepPrice('', 0.05, 1)).toBe('0.05');
    expect(stepPrice('0.05', 0.05, -1)).toBe('0.05');
    expect(stepPrice('905.30', undefined, 1)).toBeUndefined();
  });
});

describe('value and margin estimate', () => {
  it('values a LIMIT at its price, a MARKET at the last price, an SL-M at its trigger', () => {
    expect(toPlainText(estimateOrder(draft(), sbin)!.value)).toBe('9053');
    const market = estimateOrder(draft({ priceType: 'MARKET' }), { ...sbin, lastPrice: 905.35 })!;
    expect([toPlainText(market.value), market.basis]).toEqual(['9053.5', 'last price']);
    const slm = estimateOrder(draft({ priceType: 'SL-M', triggerText: '900' }), sbin)!;
    expect([toPlainText(slm.value), slm.basis]).toEqual(['9000', 'trigger']);
    expect(estimateOrder(draft({ priceType: 'MARKET' }), { ...sbin, lastPrice: undefined })).toBeUndefined();
  });

  it("estimates margin by the paper gateway's leverage", () => {
    const mis = estimateOrder(draft(), sbin)!;
    expect([toPlainText(mis.margin), mis.leverage]).toEqual(['1810.6', 5]);
    const cnc = estimateOrder(draft({ product: 'CNC' }), sbin)!;
    expect([toPlainText(cnc.margin), cnc.leverage]).toEqual(['9053', 1]);
    expect(toPlainText(estimateOrder(draft({ side: 'SELL', product: 'CNC' }), sbin)!.margin)).toBe('0');
    const fut = estimateOrder(draft({ quantityText: '65', priceText: '24000.1', product: 'NRML' }), nifty)!;
    expect([toPlainText(fut.margin), fut.leverage]).toEqual(['156000.65', 10]);
    const opt = estimateOrder(draft({ quantityText: '65', priceText: '120.05', product: 'NRML' }), {
      instrument: NIFTY_CE,
    })!;
    expect([toPlainText(opt.margin), opt.leverage]).toEqual(['7803.25', 1]);
  });

  it('rounds the margin up to the paisa', () => {
    const cheap: TicketContext = { instrument: { ...SBIN, tickSize: 0.01 }, lastPrice: 100 };
    // 100.01 / 5 = 20.002 → 20.01 (never under-states what will be blocked).
    expect(toPlainText(estimateOrder(draft({ quantityText: '1', priceText: '100.01' }), cheap)!.margin)).toBe(
      '20.01',
    );
    expect(toPlainText(estimateOrder(draft({ quantityText: '5', priceText: '100.01' }), cheap)!.margin)).toBe(
      '100.01',
    );
  });
});

describe('the orders.place request', () => {
  it('carries the order and no key', () => {
    const req = buildPlaceRequest(
      draft({ priceType: 'SL', triggerText: '905.00', disclosedText: '5' }),
      sbin,
      'desk',
    );
    expect(req).toEqual({
      exchange: 'NSE',
      symbol: 'SBIN',
      action: 'BUY',
      quantity: 10,
      pricetype: 'SL',
      product: 'MIS',
      price: 905.3,
      trigger_price: 905,
      disclosed_quantity: 5,
      strategy: 'desk',
    });
    expect(JSON.stringify(req)).not.toMatch(/apikey|key/i);
  });

  it('is not built while the draft has an issue', () => {
    expect(buildPlaceRequest(draft({ priceText: '905.33' }), sbin)).toBeUndefined();
  });
});
