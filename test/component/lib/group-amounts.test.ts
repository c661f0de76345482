// groupAmounts: a gateway's rupee amounts in en-IN grouping, and nothing else touched (order ids,
// symbols with digits, times, dates, quantities). A pure function: tested as a unit, in this project
// for the renderer's import aliases.
import { describe, expect, it } from 'vitest';
import { groupAmounts } from '../../../src-renderer/src/lib/refusal-words';

describe('groupAmounts', () => {
  it("groups the paper gateway's funds refusal, amount by amount", () => {
    expect(
      groupAmounts(
        'Insufficient funds. Required: ₹18048000.00, Available: ₹10000000.00, Shortage: ₹8048000.00',
      ),
    ).toBe(
      'Insufficient funds. Required: ₹1,80,48,000.00, Available: ₹1,00,00,000.00, Shortage: ₹80,48,000.00',
    );
  });

  it('marks and groups a labelled amount the gateway wrote without ₹', () => {
    expect(groupAmounts('Required: 18048000.00')).toBe('Required: ₹1,80,48,000.00');
    expect(groupAmounts('margin required: 250000.5 exceeds available cash: 99999')).toBe(
      'margin required: ₹2,50,000.50 exceeds available cash: ₹99,999.00',
    );
    expect(groupAmounts('Rs. 150000 short; INR 2500.75 blocked')).toBe(
      '₹1,50,000.00 short; ₹2,500.75 blocked',
    );
  });

  it('leaves order ids, symbols, times, dates and quantities as they are', () => {
    const texts = [
      'Order 25112800000123 not found',
      'orderid: 1764312000123 rejected',
      'NIFTY28NOV2524000CE is not tradable',
      'Market closed at 15:30:00, opens 09:15:00',
      'Expiry 27-11-2025 has passed (2025-11-27)',
      'Quantity 1800 exceeds the freeze quantity 1800',
      'Price 24000.05 is not a multiple of the tick 0.05',
    ];
    for (const t of texts) expect(groupAmounts(t)).toBe(t);
  });

  it('leaves an amount already grouped, and a number glued to letters or a second decimal point', () => {
    expect(groupAmounts('Required: ₹1,80,48,000.00')).toBe('Required: ₹1,80,48,000.00');
    expect(groupAmounts('Required: 1,80,480')).toBe('Required: 1,80,480');
    expect(groupAmounts('value: 12ab')).toBe('value: 12ab');
    expect(groupAmounts('balance: 1.2.3')).toBe('balance: 1.2.3');
  });
});
