// The option chain's state: quotes from multiquotes with a contract the gateway could not quote
// kept with its reason, live quotes from market.quote events.
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult, MultiQuotesResponse } from '@contract';
import { OptionChainState } from '../../../src-renderer/src/state/option-chain.svelte';
import { settle } from '../../support/component/desk-fixture';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';
import { answerChain, EXPIRY, quote, quoteEvent, STRIKES } from './option-chain-fixture.js';

afterEach(() => document.body.replaceChildren());

describe('OptionChainState', () => {
  it('loads expiries, strikes around the index spot and their quotes; events update them', async () => {
    const bridge = new FakeBridge();
    const unquoted = answerChain(bridge, 24_985.35);
    unquoted.add('NIFTY24NOV2625050PE');
    const chain = new OptionChainState(bridge);
    const stop = chain.listen();
    chain.setEach(5);
    await chain.load('NIFTY', 'NFO');

    expect(chain.picker.expiries).toEqual([EXPIRY, '01-DEC-26']);
    expect(chain.spotRef).toEqual({ symbol: 'NIFTY', exchange: 'NSE_INDEX' });
    expect(chain.spot).toBe(24_985.35);
    expect(chain.atm).toBe(25_000);
    expect(chain.rows.map((r) => r.strike)).toEqual(STRIKES.slice(10, 21));
    expect(chain.rows.filter((r) => r.atm).map((r) => r.strike)).toEqual([25_000]);
    // One multiquotes for the window's 22 contracts and the spot candidates.
    const mq = bridge.callsTo('market.multiquotes');
    expect(mq).toHaveLength(1);
    expect((mq[0]!.input as { symbols: unknown[] }).symbols).toHaveLength(2 + 22);
    const row = chain.rows.find((r) => r.strike === 25_050)!;
    expect(row.CE?.quote?.ltp).toBeGreaterThan(0);
    expect(row.PE?.quote).toBeUndefined();
    expect(row.PE?.missing).toMatch(/not found/);
    // The watch input: the spot and the shown contracts, quote mode.
    expect(chain.watchInput?.mode).toBe('quote');
    expect(chain.watchInput?.symbols).toHaveLength(23);

    // A quote event for a shown contract lands (and clears its missing reason); an older one and
    // another instrument's are ignored.
    const ev = quoteEvent('NIFTY24NOV2625050PE', {
      ltp: 77.5,
      change: -2.5,
      changePercent: -3.13,
      bid: 77.45,
      ask: 77.55,
    });
    bridge.emit('market.quote', { ...ev, seq: 20 });
    bridge.emit('market.quote', { ...ev, ltp: 1, seq: 19 });
    bridge.emit('market.quote', { ...ev, symbol: 'SBIN', exchange: 'NSE', seq: 21 });
    const after = chain.rows.find((r) => r.strike === 25_050)!;
    expect(after.PE?.quote?.ltp).toBe(77.5);
    expect(after.PE?.missing).toBeUndefined();
    expect(chain.quotes.has('NSE:SBIN')).toBe(false);

    // The spot moves past the window: the ATM follows and the window re-centres on it.
    bridge.emit('market.quote', { ...ev, symbol: 'NIFTY', exchange: 'NSE_INDEX', ltp: 25_512, seq: 22 });
    expect(chain.atm).toBe(25_500);
    expect(chain.rows.map((r) => r.strike)).toEqual(STRIKES.slice(20, 31));
    stop();
  });

  it('another expiry lists its own strikes and quotes them', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, 24_985);
    const chain = new OptionChainState(bridge);
    await chain.load('NIFTY', 'NFO');
    await chain.chooseExpiry('01-DEC-26');
    expect(chain.picker.expiry).toBe('01-DEC-26');
    expect(chain.rows.map((r) => [r.strike, r.atm])).toEqual([[25_000, true]]);
    const last = bridge.callsTo('market.multiquotes').at(-1)!.input as { symbols: { symbol: string }[] };
    expect(last.symbols.map((s) => s.symbol)).toContain('NIFTY01DEC2625000CE');
  });

  it('a reload keeps its prices until its answer updates them; another expiry drops them', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, 24_985);
    const chain = new OptionChainState(bridge);
    await chain.load('NIFTY', 'NFO');
    const before = chain.rows.find((r) => r.atm)!.CE?.quote?.ltp;
    expect(before).toBeGreaterThan(0);

    // While the reload's quotes are on their way, the cells keep what they showed: no blank frame.
    const held = deferred<IpcResult<MultiQuotesResponse>>();
    bridge.answer('market.multiquotes', () => held.promise);
    const reload = chain.load('NIFTY', 'NFO');
    // Loading from the start (the note shows, the greeks and the watch wait), not only once quoting.
    expect(chain.quoting).toBe(true);
    expect(chain.watchInput).toBeUndefined();
    await settle();
    expect(chain.quoting).toBe(true);
    expect(chain.rows.find((r) => r.atm)!.CE?.quote?.ltp).toBe(before);
    const atmCall = chain.rows.find((r) => r.atm)!.CE!.contract;
    held.resolve({
      ok: true,
      value: {
        status: 'success',
        results: [{ symbol: atmCall.symbol, exchange: atmCall.exchange, data: quote(123.45) }],
      },
    });
    await reload;
    expect(chain.rows.find((r) => r.atm)!.CE?.quote?.ltp).toBe(123.45);

    // Another expiry's answer leaves none of this expiry's quotes behind.
    answerChain(bridge, 24_985);
    await chain.chooseExpiry('01-DEC-26');
    expect([...chain.quotes.keys()].filter((k) => k.includes('24NOV26'))).toEqual([]);
    expect(chain.quotes.size).toBeGreaterThan(0);
  });

  it('a reload whose quotes cannot be read shows no price from before', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, 24_985);
    const chain = new OptionChainState(bridge);
    await chain.load('NIFTY', 'NFO');
    expect(chain.rows.some((r) => r.CE?.quote !== undefined)).toBe(true);
    bridge.answer('market.multiquotes', () => ({
      ok: false,
      error: { kind: 'network', message: 'connect ECONNREFUSED' },
    }));
    await chain.load('NIFTY', 'NFO');
    expect(chain.quoteError).toMatch(/^Quotes could not be read/);
    expect(chain.rows).toHaveLength(21);
    expect(chain.rows.every((r) => r.CE?.quote === undefined && r.PE?.quote === undefined)).toBe(true);
  });

  it('without a spot quote, centres on the strike where call and put meet', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, undefined);
    const chain = new OptionChainState(bridge);
    chain.setEach(20);
    await chain.load('NIFTY', 'NFO');
    expect(chain.spot).toBeUndefined();
    // optionPrice's default spot is 24,985: the call and put meet at 25,000.
    expect(chain.atm).toBe(25_000);
  });

  it('watches nothing while loading, and a load superseded by one that finds nothing is not left loading', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, 24_985);
    const held = deferred<IpcResult<MultiQuotesResponse>>();
    bridge.answer('market.multiquotes', () => held.promise);
    const chain = new OptionChainState(bridge);
    const first = chain.load('NIFTY', 'NFO');
    await settle();
    expect(chain.quoting).toBe(true);
    expect(chain.rows).toHaveLength(21);
    expect(chain.watchInput).toBeUndefined();

    bridge.answer('market.expiry', () => ({ ok: true, value: { status: 'success', message: '', data: [] } }));
    await chain.load('XYZ', 'NFO');
    expect(chain.picker.message).toBe('No options of XYZ on NFO');
    expect(chain.quoting).toBe(false);
    held.resolve({ ok: true, value: { status: 'success', results: [] } });
    await first;
    expect(chain.quoting).toBe(false);
    expect(chain.rows).toEqual([]);
  });

  it('says why when the quotes cannot be read, and keeps the rows', async () => {
    const bridge = new FakeBridge();
    answerChain(bridge, 24_985);
    bridge.answer('market.multiquotes', () => ({
      ok: false,
      error: { kind: 'rate_limited', message: 'Too many requests' },
    }));
    const chain = new OptionChainState(bridge);
    await chain.load('NIFTY', 'NFO');
    expect(chain.quoteError).toBe('Quotes could not be read: Too many requests');
    expect(chain.rows).toHaveLength(21);
    expect(chain.rows.every((r) => r.CE?.quote === undefined)).toBe(true);
  });
});
