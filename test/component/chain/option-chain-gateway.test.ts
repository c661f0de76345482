// The chain's quotes from the gateway's optionchain (market.optionChain): one request for the shown
// contracts and the spot; multiquotes only for what the chain did not cover, or for everything
// when the gateway does not offer optionchain (then it is not asked again).
import { describe, expect, it } from 'vitest';
import type { MultiQuotesResponse, OptionChainResponse } from '@contract';
import type { ChainContract } from '../../../src-renderer/src/lib/option-chain';
import { expiryCodeOf, optionChainSource } from '../../../src-renderer/src/lib/option-chain-gateway';
import { multiquotesSource } from '../../../src-renderer/src/state/option-chain.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';

const contract = (strike: number, optionType: 'CE' | 'PE'): ChainContract => ({
  symbol: `NIFTY01DEC26${strike}${optionType}`,
  exchange: 'NFO',
  optionType,
  lotSize: 65,
  tickSize: 0.05,
});
const CONTRACTS = [25900, 25950, 26000].flatMap((k) => [contract(k, 'CE'), contract(k, 'PE')]);
const SPOTS = [{ symbol: 'NIFTY', exchange: 'NSE_INDEX' }];

const leg = (strike: number, type: 'CE' | 'PE', ltp: number) => ({
  symbol: `NIFTY01DEC26${strike}${type}`,
  label: 'ATM',
  ltp,
  bid: ltp - 0.05,
  ask: ltp + 0.05,
  prev_close: ltp - 10,
  volume: 1000,
  oi: 5000,
});

function chainAnswer(strikes: number[]): OptionChainResponse {
  return {
    status: 'success',
    underlying: 'NIFTY',
    underlying_ltp: 25962.3,
    underlying_prev_close: 25900.3,
    expiry_date: '01DEC26',
    atm_strike: 25950,
    chain: strikes.map((k) => ({ strike: k, ce: leg(k, 'CE', 100), pe: leg(k, 'PE', 90) })),
  };
}

function multiAnswer(bridge: FakeBridge): FakeBridge {
  return bridge.answer('market.multiquotes', (input) => {
    const results: MultiQuotesResponse['results'] = (input?.symbols ?? []).map((s) => ({
      symbol: s.symbol,
      exchange: s.exchange,
      data: { ltp: 7, prev_close: 5, bid: 6.95, ask: 7.05, open: 5, high: 7, low: 5, volume: 1, oi: 2 },
    }));
    return { ok: true, value: { status: 'success', results } };
  });
}

describe('optionChainSource', () => {
  it('reads the shown contracts and the spot from one optionchain request', async () => {
    const bridge = multiAnswer(new FakeBridge()).answer('market.optionChain', () => ({
      ok: true,
      value: chainAnswer([25900, 25950, 26000]),
    }));
    const res = await optionChainSource(bridge, multiquotesSource(bridge))(CONTRACTS, SPOTS);
    if (!res.ok) throw new Error(res.error.message);
    expect(bridge.callsTo('market.optionChain').map((c) => c.input)).toEqual([
      { underlying: 'NIFTY', exchange: 'NSE_INDEX', expiry_date: '01DEC26', strike_count: 3 },
    ]);
    expect(bridge.callsTo('market.multiquotes')).toEqual([]);
    expect(res.value.quotes.get('NFO:NIFTY01DEC2625950CE')).toMatchObject({ ltp: 100, change: 10, oi: 5000 });
    expect(res.value.quotes.get('NSE_INDEX:NIFTY')).toMatchObject({ ltp: 25962.3, change: 62 });
  });

  it('asks multiquotes only for the contracts the chain did not cover', async () => {
    const bridge = multiAnswer(new FakeBridge()).answer('market.optionChain', () => ({
      ok: true,
      value: chainAnswer([25950, 26000]),
    }));
    const res = await optionChainSource(bridge, multiquotesSource(bridge))(CONTRACTS, SPOTS);
    if (!res.ok) throw new Error(res.error.message);
    const asked = (bridge.callsTo('market.multiquotes')[0]?.input as { symbols: { symbol: string }[] })
      .symbols;
    expect(asked.map((s) => s.symbol)).toEqual(['NIFTY01DEC2625900CE', 'NIFTY01DEC2625900PE']);
    expect(res.value.quotes.get('NFO:NIFTY01DEC2625900CE')?.ltp).toBe(7);
    expect(res.value.quotes.get('NFO:NIFTY01DEC2626000PE')?.ltp).toBe(90);
  });

  it('falls back to multiquotes when the gateway does not offer optionchain, and stops asking', async () => {
    const bridge = multiAnswer(new FakeBridge()).answer('market.optionChain', () => ({
      ok: false,
      error: { kind: 'not_offered', message: 'the gateway does not offer optionchain' },
    }));
    const source = optionChainSource(bridge, multiquotesSource(bridge));
    const first = await source(CONTRACTS, SPOTS);
    const second = await source(CONTRACTS, SPOTS);
    expect(first.ok && second.ok).toBe(true);
    expect(bridge.callsTo('market.optionChain')).toHaveLength(1);
    expect(bridge.callsTo('market.multiquotes')).toHaveLength(2);
  });

  it('finds the expiry code after the underlying name only', () => {
    expect(expiryCodeOf('NIFTY01DEC2626000CE', 'NIFTY')).toBe('01DEC26');
    expect(expiryCodeOf('BANKNIFTY01DEC2652000CE', 'NIFTY')).toBeUndefined();
    expect(expiryCodeOf('NIFTYFUT', 'NIFTY')).toBeUndefined();
  });
});
