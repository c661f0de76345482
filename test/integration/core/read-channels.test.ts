// The read channels over the router against the real paper gateway: instrument details, multi
// quotes, intervals, one order's status, a strategy's open position, and the books as view models.
import { describe, expect, it } from 'vitest';
import { restingBuy, usePaper, withCore } from '../../support/core-harness.js';

const paper = usePaper();

async function value<T>(r: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>): Promise<T> {
  const answer = await r;
  if (!answer.ok) throw new Error(JSON.stringify(answer.error));
  return answer.value;
}

describe('market reads', () => {
  it('market.symbol: SBIN trades in lots of 1 at a 0.05 tick; the NIFTY future in lots of 65', () =>
    withCore(paper, async (h) => {
      const sbin = await value(h.core.router.invoke('market.symbol', { symbol: 'SBIN', exchange: 'NSE' }));
      expect(sbin).toMatchObject({
        symbol: 'SBIN',
        exchange: 'NSE',
        lotSize: 1,
        tickSize: 0.05,
        expiry: '',
        strike: null,
      });
      const futures = await value(
        h.core.router.invoke('market.search', { query: 'NIFTY FUT', exchange: 'NFO' }),
      );
      const future = futures.data.find((r) => r.name === 'NIFTY' && r.symbol.endsWith('FUT'));
      expect(future).toBeDefined();
      const nifty = await value(
        h.core.router.invoke('market.symbol', { symbol: future?.symbol ?? '', exchange: 'NFO' }),
      );
      expect(nifty).toMatchObject({ symbol: future?.symbol, exchange: 'NFO', lotSize: 65, strike: null });
      expect(nifty.expiry).toMatch(/^\d{2}-[A-Z]{3}-\d{2}$/);
      expect(nifty.freezeQuantity).toBeGreaterThan(65);
      // An option has its strike.
      const options = await value(
        h.core.router.invoke('market.search', { query: 'NIFTY 24000 CE', exchange: 'NFO' }),
      );
      const option = options.data[0];
      const ce = await value(
        h.core.router.invoke('market.symbol', { symbol: option?.symbol ?? '', exchange: 'NFO' }),
      );
      expect(ce).toMatchObject({ strike: 24000, lotSize: 65, instrumentType: 'OPTIDX' });
      // The gateway's refusal comes through typed; the key never goes in.
      expect(await h.core.router.invoke('market.symbol', { symbol: 'NOPE', exchange: 'NSE' })).toMatchObject({
        ok: false,
        error: { kind: 'bad_input', httpStatus: 404, message: expect.stringMatching(/NOPE not found/) },
      });
      expect(
        await h.core.router.invoke('market.symbol', {
          symbol: 'SBIN',
          exchange: 'NSE',
          apikey: 'x'.repeat(40),
        }),
      ).toMatchObject({ ok: false, error: { kind: 'invalid_input', message: /unknown field\(s\): apikey/ } });
    }));

  it('market.multiquotes answers each instrument asked for; market.intervals lists the bar intervals', () =>
    withCore(paper, async (h) => {
      const quotes = await value(
        h.core.router.invoke('market.multiquotes', {
          symbols: [
            { symbol: 'SBIN', exchange: 'NSE' },
            { symbol: 'TCS', exchange: 'NSE' },
          ],
        }),
      );
      expect(quotes.results.map((r) => r.symbol)).toEqual(['SBIN', 'TCS']);
      for (const r of quotes.results) expect((r.data as { ltp: number }).ltp).toBeGreaterThan(0);
      expect(await h.core.router.invoke('market.multiquotes', { symbols: [] })).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input', message: /at least one/ },
      });
      const intervals = await value(h.core.router.invoke('market.intervals'));
      expect(intervals.data.minutes).toContain('5m');
      expect(intervals.data.days).toContain('D');
    }));

  it('market.optionChain: one expiry of the NIFTY chain with quotes, in the contract shape', () =>
    withCore(paper, async (h) => {
      const chain = await value(
        h.core.router.invoke('market.optionChain', {
          underlying: 'NIFTY',
          exchange: 'NSE_INDEX',
          expiry_date: '01DEC26',
          strike_count: 2,
        }),
      );
      expect(chain.chain).toHaveLength(5);
      expect(chain.chain[2]?.strike).toBe(chain.atm_strike);
      expect(chain.chain[2]?.ce?.label).toBe('ATM');
      expect(chain.underlying_ltp).toBeGreaterThan(0);
      expect(
        await h.core.router.invoke('market.optionChain', {
          underlying: 'NIFTY',
          exchange: 'NSE_INDEX',
          expiry_date: '01DEC26',
          strike_count: 0,
        }),
      ).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    }));
});

describe('order reads', () => {
  it('orders.status follows one order from open to cancelled, as the order book row', () =>
    withCore(paper, async (h) => {
      const { orderid, limit } = await restingBuy(paper, h, 'SBIN', 3);
      const open = await value(h.core.router.invoke('orders.status', { orderid }));
      expect(open).toMatchObject({
        orderid,
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 3,
        price: limit,
        status: 'open',
        strategy: 'OrderDesk',
      });
      expect((await h.core.router.invoke('orders.cancel', { orderid })).ok).toBe(true);
      expect(await value(h.core.router.invoke('orders.status', { orderid }))).toMatchObject({
        orderid,
        status: 'cancelled',
      });
      // The same row the orders view shows.
      const book = await value(h.core.router.invoke('books.orders'));
      expect(book.orders.find((o) => o.orderid === orderid)).toEqual(
        await value(h.core.router.invoke('orders.status', { orderid })),
      );
      const missing = await h.core.router.invoke('orders.status', { orderid: '99999999999' });
      expect(missing.ok).toBe(false);
      expect(missing.ok ? undefined : missing.error.kind).not.toBe('internal');
    }));

  it('books.positionsOpen is the strategy’s own exposure after a fill; orders.openPosition the account’s', () =>
    withCore(paper, async (h) => {
      const buy = (strategy: string, quantity: number) =>
        h.core.router.invoke('orders.place', {
          exchange: 'NSE',
          symbol: 'ITC',
          action: 'BUY',
          quantity,
          product: 'MIS',
          strategy,
        });
      expect((await buy('alpha', 5)).ok).toBe(true);
      expect((await buy('beta', 2)).ok).toBe(true);
      const itc = { symbol: 'ITC', exchange: 'NSE', product: 'MIS' };
      expect(
        await value(h.core.router.invoke('books.positionsOpen', { ...itc, strategy: 'alpha' })),
      ).toMatchObject({
        quantity: 5,
      });
      expect(
        await value(h.core.router.invoke('books.positionsOpen', { ...itc, strategy: 'beta' })),
      ).toMatchObject({
        quantity: 2,
      });
      // No strategy named: the profile's (OrderDesk), which holds none of it.
      expect(await value(h.core.router.invoke('books.positionsOpen', itc))).toMatchObject({ quantity: 0 });
      expect(
        await value(h.core.router.invoke('orders.openPosition', { ...itc, strategy: 'alpha' })),
      ).toMatchObject({
        quantity: 7,
      });
      expect(await h.core.router.invoke('books.positionsOpen', { ...itc, product: 'XYZ' })).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input' },
      });
    }));
});

describe('books as views', () => {
  it('positions carry exact MTM at the watcher’s prices; trades, holdings and funds their own views', () =>
    withCore(paper, async (h) => {
      await h.core.pollNow();
      const bought = await h.core.router.invoke('orders.place', {
        exchange: 'NSE',
        symbol: 'TCS',
        action: 'BUY',
        quantity: 3,
        product: 'MIS',
      });
      expect(bought.ok).toBe(true);
      await h.core.pollNow(); // the watcher quotes the open position
      const positions = await value(h.core.router.invoke('books.positions'));
      expect(positions.positions).toHaveLength(1);
      const [tcs] = positions.positions;
      expect(tcs).toMatchObject({ symbol: 'TCS', quantity: 3 });
      expect(tcs?.ltp).toBeGreaterThan(0);
      // (ltp − average) × 3 to the paisa, worked out here in integer paise.
      const paise = (x: number) => Math.round(x * 100);
      const expected = (paise(tcs?.ltp ?? 0) - paise(tcs?.averagePrice ?? 0)) * 3;
      expect(paise(tcs?.mtm ?? NaN)).toBe(expected);
      expect(positions.totalMtm).toBe(tcs?.mtm);
      const trades = await value(h.core.router.invoke('books.trades'));
      expect(trades.trades).toMatchObject([{ symbol: 'TCS', action: 'BUY', quantity: 3 }]);
      expect(trades.trades[0]?.tradeValue).toBeCloseTo((trades.trades[0]?.averagePrice ?? 0) * 3, 2);
      const holdings = await value(h.core.router.invoke('books.holdings'));
      expect(holdings).toMatchObject({ holdings: [], statistics: { totalHoldingValue: 0 } });
      const funds = await value(h.core.router.invoke('books.funds'));
      expect(funds.availableCash).toMatch(/^\d+\.\d{2}$/);
      expect(Number(funds.utilisedDebits)).toBeGreaterThan(0);
    }));
});
