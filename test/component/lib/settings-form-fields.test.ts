// A settings form's number fields read together (values, and each unreadable field's reason under the
// key main's refusals use) and an amount field's note (the amount as the limit reads it).
import { describe, expect, it } from 'vitest';
import { amountNote, readAmount, readFields, readWhole } from '../../../src-renderer/src/lib/settings-form';

const FIELDS = [
  { id: 'maxValuePerOrder', label: 'Value per order', read: readAmount },
  { id: 'maxQuantityPerOrder', label: 'Qty per order', read: readWhole },
] as const;

describe('readFields', () => {
  it('reads every field the trader wrote, grouped and with a rupee sign', () => {
    const read = readFields(
      FIELDS,
      { maxValuePerOrder: '₹ 10,00,000.50', maxQuantityPerOrder: '1,800' },
      'risk',
    );
    expect(read).toEqual({
      values: { maxValuePerOrder: 1_000_000.5, maxQuantityPerOrder: 1800 },
      errors: {},
    });
  });

  it('keeps each unreadable field’s reason under <section>.<id>, and reads the others', () => {
    const read = readFields(FIELDS, { maxValuePerOrder: '5000', maxQuantityPerOrder: '2.5' }, 'risk');
    expect(read.values).toEqual({ maxValuePerOrder: 5000 });
    expect(Object.keys(read.errors)).toEqual(['risk.maxQuantityPerOrder']);
    expect(read.errors['risk.maxQuantityPerOrder']).toMatch(/^Qty per order/);
  });
});

describe('amountNote', () => {
  it('says the amount as the limit reads it, en-IN grouped', () => {
    expect(amountNote('5000000', 'rupees')).toBe('₹50,00,000.00');
  });

  it('keeps the note for 0 and for text that is not an amount', () => {
    expect(amountNote('0', '0 is off')).toBe('0 is off');
    expect(amountNote('abc', 'rupees')).toBe('rupees');
  });
});
