// The greek reader where the paper gateway cannot show it: a gateway without multioptiongreeks (asked
// optiongreeks for a few contracts only) and one that fails every batch (an error, said once).
import { describe, expect, it } from 'vitest';
import type { OptionGreeksResponse } from '../../../src-main/contract/index.js';
import { readOptionGreeks, SINGLE_GREEKS_MAX } from '../../../src-main/core/router/greek-reader.js';

const symbols = Array.from({ length: 10 }, (_, i) => ({
  symbol: `NIFTY30DEC26${24000 + i * 50}CE`,
  exchange: 'NFO' as const,
}));
const answer = (symbol: string): OptionGreeksResponse => ({
  status: 'success',
  symbol,
  exchange: 'NFO',
  underlying: 'NIFTY',
  strike: 24000,
  option_type: 'CE',
  expiry_date: '30-Dec-2026',
  days_to_expiry: 30,
  spot_price: 24000,
  option_price: 300,
  implied_volatility: 14.2,
  greeks: { delta: 0.51, gamma: 0.0003, theta: -8.1, vega: 27.4 },
});

describe('readOptionGreeks', () => {
  it('without multioptiongreeks asks optiongreeks for the first few only; the rest are dashes', async () => {
    const asked: string[] = [];
    const client = {
      multioptiongreeks: async () => ({
        ok: false as const,
        error: { kind: 'not_offered' as const, message: 'no' },
      }),
      optiongreeks: async (s: { symbol: string }) => {
        asked.push(s.symbol);
        return { ok: true as const, value: answer(s.symbol) };
      },
    };
    const r = await readOptionGreeks(client as never, { symbols });
    expect(asked).toEqual(symbols.slice(0, SINGLE_GREEKS_MAX).map((s) => s.symbol));
    expect(r).toMatchObject({ ok: true, value: { failed: symbols.length - SINGLE_GREEKS_MAX } });
    if (!r.ok) return;
    expect(r.value.greeks[0]).toEqual({
      symbol: symbols[0]?.symbol,
      exchange: 'NFO',
      iv: 14.2,
      delta: 0.51,
      gamma: 0.0003,
      theta: -8.1,
      vega: 27.4,
    });
    expect(r.value.greeks.at(-1)?.delta).toBeNull();
  });

  it('every batch failing is one error with the gateway words', async () => {
    let calls = 0;
    const client = {
      multioptiongreeks: async () => {
        calls++;
        return {
          ok: false as const,
          error: { kind: 'network' as const, message: 'cannot reach the gateway' },
        };
      },
      optiongreeks: async () => {
        throw new Error('not asked');
      },
    };
    const many = Array.from({ length: 120 }, (_, i) => ({ symbol: `S${i}`, exchange: 'NFO' as const }));
    const r = await readOptionGreeks(client as never, { symbols: many });
    expect(calls).toBe(3);
    expect(r).toEqual({ ok: false, error: { kind: 'network', message: 'cannot reach the gateway' } });
  });
});
