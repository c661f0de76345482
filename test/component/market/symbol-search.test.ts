// Type-ahead search: one request per pause in typing, only the latest query's answer shown (a slow
// early answer is dropped), ↑/↓ and Enter to pick, Enter typed before the answer picks its first row.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpcResult, SearchResponse, SymbolRecord } from '@contract';
import SymbolSearch from '../../../src-renderer/src/components/SymbolSearch.svelte';
import { SymbolSearchState } from '../../../src-renderer/src/state/symbol-search.svelte';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

function record(symbol: string, exchange = 'NSE', name = ''): SymbolRecord {
  return {
    symbol,
    brsymbol: symbol,
    name,
    exchange,
    brexchange: exchange,
    token: '1',
    expiry: '',
    strike: -0.01,
    lotsize: 1,
    instrumenttype: '',
    tick_size: 0.05,
  };
}
const found = (...data: SymbolRecord[]): IpcResult<SearchResponse> => ({
  ok: true,
  value: { status: 'success', message: `Found ${data.length} matching symbols`, data },
});

function setup() {
  vi.useFakeTimers();
  const bridge = new FakeBridge();
  const search = new SymbolSearchState(bridge, { debounceMs: 120 });
  const picked: SymbolRecord[] = [];
  render(SymbolSearch, { props: { search, id: 's', onpick: (r: SymbolRecord) => picked.push(r) } });
  const input = screen.getByRole('combobox', { name: 'Search instrument' }) as HTMLInputElement;
  const type = async (text: string) => {
    input.value = text;
    await fireEvent.input(input);
  };
  return { bridge, search, picked, input, type };
}

const options = () =>
  Array.from(screen.queryByRole('listbox')?.querySelectorAll('[role=option]') ?? [], (o) =>
    o.textContent?.replace(/\s+/g, ' ').trim(),
  );

describe('symbol search type-ahead', () => {
  it('asks once per pause in typing, after the debounce', async () => {
    const { bridge, type } = setup();
    bridge.answer('market.search', () => found(record('SBIN')));
    await type('s');
    await type('sb');
    await type('sbi');
    await vi.advanceTimersByTimeAsync(119);
    expect(bridge.callsTo('market.search')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(bridge.callsTo('market.search').map((c) => c.input)).toEqual([{ query: 'sbi' }]);
  });

  it('drops an answer that arrives after a later query was asked', async () => {
    const { bridge, search, type } = setup();
    const slow = deferred<IpcResult<SearchResponse>>();
    const fast = deferred<IpcResult<SearchResponse>>();
    const answers = [slow, fast];
    bridge.answer('market.search', () => answers.shift()!.promise);
    await type('rel');
    await vi.advanceTimersByTimeAsync(120);
    await type('reliance');
    await vi.advanceTimersByTimeAsync(120);
    expect(bridge.callsTo('market.search').map((c) => (c.input as { query: string }).query)).toEqual([
      'rel',
      'reliance',
    ]);
    fast.resolve(found(record('RELIANCE', 'NSE', 'RELIANCE INDUSTRIES')));
    await vi.advanceTimersByTimeAsync(0);
    slow.resolve(found(record('RELAXO'), record('RELIGARE'), record('RELIANCE')));
    await vi.advanceTimersByTimeAsync(0);
    expect(options()).toEqual(['RELIANCE NSE RELIANCE INDUSTRIES']);
    expect(search.staleDropped).toBe(1);
  });

  it('a cleared field forgets the answer still on its way', async () => {
    const { bridge, type } = setup();
    const late = deferred<IpcResult<SearchResponse>>();
    bridge.answer('market.search', () => late.promise);
    await type('infy');
    await vi.advanceTimersByTimeAsync(120);
    await type('');
    late.resolve(found(record('INFY')));
    await vi.advanceTimersByTimeAsync(0);
    expect(options()).toEqual([]);
  });

  it('↓ and Enter pick the highlighted row; the exchange filter goes with the query', async () => {
    const { bridge, picked, input, type } = setup();
    bridge.answer('market.search', () => found(record('SBIN', 'NSE'), record('SBIN', 'BSE')));
    await fireEvent.change(screen.getByRole('combobox', { name: 'Exchange filter' }), {
      target: { value: 'BSE' },
    });
    await type('sbin');
    await vi.advanceTimersByTimeAsync(120);
    expect(bridge.callsTo('market.search').at(-1)?.input).toEqual({ query: 'sbin', exchange: 'BSE' });
    expect(input).toHaveAttribute('aria-activedescendant', 's-opt-0');
    await fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input).toHaveAttribute('aria-activedescendant', 's-opt-1');
    const e = await fireEvent.keyDown(input, { key: 'Enter' });
    expect(e).toBe(false); // default prevented: the Enter is the search's, never a send
    expect(picked.map((r) => `${r.exchange}:${r.symbol}`)).toEqual(['BSE:SBIN']);
    expect(input.value).toBe('');
  });

  it('Enter typed before the answer picks its first row when it arrives', async () => {
    const { bridge, picked, input, type } = setup();
    const answer = deferred<IpcResult<SearchResponse>>();
    bridge.answer('market.search', () => answer.promise);
    await type('sbin');
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(picked).toEqual([]);
    await vi.advanceTimersByTimeAsync(120);
    answer.resolve(found(record('SBIN')));
    await vi.advanceTimersByTimeAsync(0);
    expect(picked.map((r) => r.symbol)).toEqual(['SBIN']);
  });

  it('says when nothing matches and when the search fails', async () => {
    const { bridge, type } = setup();
    bridge.answer('market.search', () => found());
    await type('zzzz');
    await vi.advanceTimersByTimeAsync(120);
    expect(screen.getByRole('status')).toHaveTextContent('No instrument matches “zzzz”');
    bridge.answer('market.search', () => ({
      ok: false,
      error: { kind: 'network', message: 'gateway unreachable' },
    }));
    await type('zzz');
    await vi.advanceTimersByTimeAsync(120);
    expect(screen.getByRole('status')).toHaveTextContent('Search failed: gateway unreachable');
  });

  it('nifty fut⏎ picks the nearest future, whatever order the gateway listed them in', async () => {
    const { bridge, picked, input, type } = setup();
    const fut = (expiry: string) => ({
      ...record(`NIFTY${expiry.replace(/-/g, '')}FUT`, 'NFO', 'NIFTY'),
      expiry,
      strike: 0,
      instrumenttype: 'FUTIDX',
    });
    bridge.answer('market.search', () => found(fut('23-FEB-27'), fut('26-JAN-27'), fut('29-DEC-26')));
    await type('nifty fut');
    await vi.advanceTimersByTimeAsync(120);
    expect(options().map((o) => o?.split(' NFO')[0])).toEqual([
      'NIFTY 29 DEC FUT',
      'NIFTY 26 JAN FUT',
      'NIFTY 23 FEB FUT',
    ]);
    await fireEvent.keyDown(input, { key: 'Enter' });
    expect(picked.map((r) => r.symbol)).toEqual(['NIFTY29DEC26FUT']);
  });
});
