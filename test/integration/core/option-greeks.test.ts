// market.optionGreeks over the router against the real paper gateway: a 30-strike-each-side NIFTY
// window's IV and greeks in batches of multioptiongreeks, in the order asked, nulls for a contract
// the gateway cannot price.
import { describe, expect, it } from 'vitest';
import { usePaper, withCore } from '../../support/core-harness.js';

const paper = usePaper();

async function value<T>(r: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>): Promise<T> {
  const answer = await r;
  if (!answer.ok) throw new Error(JSON.stringify(answer.error));
  return answer.value;
}

describe('market.optionGreeks', () => {
  it('prices 122 contracts in three batches, calls delta 0..1, puts -1..0, IV in percent', () =>
    withCore(paper, async (h) => {
      const expiries = await value(
        h.core.router.invoke('market.expiry', {
          symbol: 'NIFTY',
          exchange: 'NFO',
          instrumenttype: 'options',
        }),
      );
      // The month's expiry: a weekly on its last day has almost no time value left to price.
      const expiry = (expiries.data[2] ?? '').replace(/-/g, '');
      const chain = await value(
        h.core.router.invoke('market.optionChain', {
          underlying: 'NIFTY',
          exchange: 'NSE_INDEX',
          expiry_date: expiry,
          strike_count: 30,
        }),
      );
      const legs = chain.chain.flatMap((r) => [r.ce, r.pe]).filter((l) => l !== null && l !== undefined);
      expect(legs.length).toBe(122);
      const symbols = [
        ...legs.map((l) => ({ symbol: l.symbol, exchange: 'NFO' as const })),
        { symbol: `NIFTY${expiry}99999CE`, exchange: 'NFO' as const },
      ];
      const got = await value(h.core.router.invoke('market.optionGreeks', { symbols }));
      expect(got.greeks.map((g) => g.symbol)).toEqual(symbols.map((s) => s.symbol));
      expect(got.failed).toBe(1);
      expect(got.greeks.at(-1)).toMatchObject({
        iv: null,
        delta: null,
        gamma: null,
        theta: null,
        vega: null,
      });
      const atm = got.greeks.filter((g) => g.symbol.includes(String(chain.atm_strike)));
      for (const g of got.greeks.slice(0, -1)) {
        const call = g.symbol.endsWith('CE');
        expect(g.delta, g.symbol).not.toBeNull();
        if (call) expect(g.delta).toBeGreaterThanOrEqual(0);
        else expect(g.delta).toBeLessThanOrEqual(0);
        expect(Math.abs(g.delta ?? 2)).toBeLessThanOrEqual(1);
      }
      for (const g of atm) {
        expect(g.iv ?? 0).toBeGreaterThan(5);
        expect(g.iv ?? 0).toBeLessThan(60);
        expect(Math.abs(g.delta ?? 0)).toBeGreaterThan(0.3);
        expect(g.gamma ?? 0).toBeGreaterThan(0);
        expect(g.vega ?? 0).toBeGreaterThan(0);
        expect(g.theta ?? 0).toBeLessThan(0);
      }
    }));

  it('refuses an empty list and more than 200 contracts', () =>
    withCore(paper, async (h) => {
      expect(await h.core.router.invoke('market.optionGreeks', { symbols: [] })).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input' },
      });
      const many = Array.from({ length: 201 }, (_, i) => ({ symbol: `X${i}`, exchange: 'NFO' as const }));
      expect(await h.core.router.invoke('market.optionGreeks', { symbols: many })).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input' },
      });
    }));
});
