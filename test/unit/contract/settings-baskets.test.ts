// Saved baskets in settings: an old settings file (no `baskets`) parses with none, a saved basket keeps
// its legs as orders.basket takes them, and the list is bounded and named uniquely.
import { describe, expect, it } from 'vitest';
import { BASKET_LIMIT, Settings, SettingsPatch } from '../../../src-main/contract/index.js';

const leg = { symbol: 'SBIN', exchange: 'NSE', action: 'BUY', quantity: 1 };

describe('settings.baskets', () => {
  it('defaults to none, so a settings file from before baskets still parses', () => {
    expect(Settings.parse({}).baskets).toEqual([]);
  });

  it('keeps a named basket with its legs, defaults filled as the gateway would', () => {
    const s = Settings.parse({ baskets: [{ name: 'Hedge', legs: [leg] }] });
    expect(s.baskets[0]).toEqual({
      name: 'Hedge',
      legs: [
        { ...leg, pricetype: 'MARKET', product: 'MIS', price: 0, trigger_price: 0, disclosed_quantity: 0 },
      ],
    });
  });

  it('refuses an empty basket, a duplicate name and more than the limit', () => {
    expect(SettingsPatch.safeParse({ baskets: [{ name: 'A', legs: [] }] }).success).toBe(false);
    expect(
      SettingsPatch.safeParse({
        baskets: [
          { name: 'A', legs: [leg] },
          { name: 'A', legs: [leg] },
        ],
      }).success,
    ).toBe(false);
    const many = Array.from({ length: BASKET_LIMIT + 1 }, (_, i) => ({ name: `B${i}`, legs: [leg] }));
    expect(SettingsPatch.safeParse({ baskets: many }).success).toBe(false);
    expect(SettingsPatch.safeParse({ baskets: many.slice(0, BASKET_LIMIT) }).success).toBe(true);
  });
});
