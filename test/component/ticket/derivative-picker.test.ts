// The F&O picker: underlying → exchange → futures/options → expiry (market.expiry) → strike → CE/PE,
// the contract taken from market.search (longer underlyings such as BANKNIFTY filtered out), the
// strike starting at the money, and an answer to an earlier question never overwriting a later one.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExpiryResponse, IpcResult, SymbolRecord } from '@contract';
import DerivativePicker from '../../../src-renderer/src/components/DerivativePicker.svelte';
import {
  DerivativePickerState,
  nearestStrike,
} from '../../../src-renderer/src/state/derivative-picker.svelte';
import { settle } from '../../support/component/desk-fixture';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';

afterEach(() => document.body.replaceChildren());

function contract(symbol: string, lotsize = 65): SymbolRecord {
  return {
    symbol,
    brsymbol: symbol,
    name: 'NIFTY',
    exchange: 'NFO',
    brexchange: 'NFO',
    token: symbol,
    expiry: '12-MAY-26',
    strike: 0,
    lotsize,
    instrumenttype: symbol.endsWith('FUT') ? 'FUTIDX' : 'OPTIDX',
    tick_size: 0.05,
  };
}
const expiries = (...data: string[]): IpcResult<ExpiryResponse> => ({
  ok: true,
  value: { status: 'success', message: `Found ${data.length} expiry dates`, data },
});

function niftyBridge(spot = 24_030): FakeBridge {
  const chain = [
    'NIFTY12MAY26FUT',
    ...[23900, 24000, 24100].flatMap((k) => [`NIFTY12MAY26${k}CE`, `NIFTY12MAY26${k}PE`]),
    // Matches the query too (the underlying is a substring): not NIFTY's.
    'BANKNIFTY12MAY2652000CE',
  ].map((s) => contract(s));
  return new FakeBridge()
    .answer('market.expiry', () => expiries('12-MAY-26', '19-MAY-26'))
    .answer('market.search', (input) => ({
      ok: true,
      value: {
        status: 'success',
        message: '',
        data: chain.filter((c) => c.symbol.includes((input?.query ?? '').toUpperCase())),
      },
    }))
    .answer('market.quotes', (input) =>
      input?.exchange === 'NSE_INDEX'
        ? {
            ok: true,
            value: {
              status: 'success',
              data: { ltp: spot, open: 0, high: 0, low: 0, prev_close: 0, volume: 0, bid: 0, ask: 0 },
            },
          }
        : { ok: false, error: { kind: 'bad_input', message: 'no quote' } },
    );
}

describe('the F&O picker', () => {
  it('walks underlying → expiry → strike → CE/PE and hands over the listed contract', async () => {
    const bridge = niftyBridge();
    const picker = new DerivativePickerState(bridge);
    const picked: string[] = [];
    render(DerivativePicker, { props: { picker, onpick: (r: SymbolRecord) => picked.push(r.symbol) } });
    const underlying = screen.getByLabelText('Underlying');
    await fireEvent.input(underlying, { target: { value: 'nifty' } });
    await fireEvent.keyDown(underlying, { key: 'Enter' });
    await settle();
    expect(bridge.callsTo('market.expiry')[0]?.input).toEqual({
      symbol: 'NIFTY',
      exchange: 'NFO',
      instrumenttype: 'options',
    });
    expect(bridge.callsTo('market.search')[0]?.input).toEqual({ query: 'NIFTY12MAY26', exchange: 'NFO' });
    // BANKNIFTY's contract is not offered; the strike starts at the money (spot 24,030 → 24,000).
    expect(picker.strikes).toEqual([23900, 24000, 24100]);
    expect((screen.getByLabelText('Strike') as HTMLSelectElement).value).toBe('24000');
    await fireEvent.click(screen.getByRole('radio', { name: 'PE' }));
    const use = screen.getByRole('button', { name: 'Use NIFTY 12 MAY 24000 PE' });
    await fireEvent.click(use);
    expect(picked).toEqual(['NIFTY12MAY2624000PE']);
  });

  it("asks the underlying's price beside the expiries, not after the contracts", async () => {
    const held = deferred<IpcResult<ExpiryResponse>>();
    const bridge = niftyBridge().answer('market.expiry', () => held.promise as never);
    const picker = new DerivativePickerState(bridge);
    picker.underlying = 'NIFTY';
    const loading = picker.loadExpiries();
    await settle();
    // The expiries are not answered yet: the price is asked for already.
    expect(bridge.calls.map((c) => c.channel)).toEqual(['market.quotes', 'market.expiry']);
    held.resolve(expiries('12-MAY-26'));
    await loading;
    // One read of the price for the whole load, and the strike still at the money.
    expect(bridge.callsTo('market.quotes')).toHaveLength(1);
    expect(picker.strike).toBe(24000);
    // A later expiry reads it afresh.
    picker.strike = undefined;
    await picker.chooseExpiry('12-MAY-26');
    expect(bridge.callsTo('market.quotes')).toHaveLength(2);
  });

  it('futures need no strike', async () => {
    const picker = new DerivativePickerState(niftyBridge());
    picker.underlying = 'NIFTY';
    picker.kind = 'futures';
    await picker.loadExpiries();
    expect(picker.resolved?.symbol).toBe('NIFTY12MAY26FUT');
  });

  it('an answer for an earlier expiry never replaces the one asked last', async () => {
    const bridge = niftyBridge();
    const picker = new DerivativePickerState(bridge);
    picker.underlying = 'NIFTY';
    await picker.loadExpiries();
    const slow = deferred<IpcResult<never>>();
    bridge.answer('market.search', (input) =>
      input?.query === 'NIFTY19MAY26'
        ? (slow.promise as never)
        : { ok: true, value: { status: 'success', message: '', data: [contract('NIFTY12MAY2624000CE')] } },
    );
    const first = picker.chooseExpiry('19-MAY-26');
    await picker.chooseExpiry('12-MAY-26');
    slow.resolve({
      ok: true,
      value: { status: 'success', message: '', data: [contract('NIFTY19MAY2699999CE')] },
    } as never);
    await first;
    expect(picker.expiry).toBe('12-MAY-26');
    expect(picker.strikes).toEqual([24000]);
  });

  it('says why when there is nothing to pick', async () => {
    const bridge = niftyBridge().answer('market.expiry', () => expiries());
    const picker = new DerivativePickerState(bridge);
    picker.underlying = 'NOSUCH';
    await picker.loadExpiries();
    expect(picker.message).toBe('No options of NOSUCH on NFO');
    picker.underlying = '';
    await picker.loadExpiries();
    expect(picker.message).toMatch(/Type the underlying/);
  });

  it("warns of missing strikes only when the gateway's 500-row cut falls inside this underlying's rows", async () => {
    const rows = (n: number, tail: string[]) => [
      ...Array.from({ length: n }, (_, i) => contract(`NIFTY12MAY26${20000 + i * 50}CE`)),
      ...tail.map((s) => contract(s)),
    ];
    const bridge = niftyBridge();
    const picker = new DerivativePickerState(bridge);
    picker.underlying = 'NIFTY';
    bridge.answer('market.search', () => ({
      ok: true,
      value: { status: 'success', message: '', data: rows(499, ['BANKNIFTY12MAY2652000CE']) },
    }));
    await picker.loadExpiries();
    expect(picker.strikes).toHaveLength(499);
    expect(picker.truncated).toBe(false);
    bridge.answer('market.search', () => ({
      ok: true,
      value: { status: 'success', message: '', data: rows(500, []) },
    }));
    await picker.chooseExpiry('12-MAY-26');
    expect(picker.truncated).toBe(true);
  });

  it('nearestStrike takes the closest, the lower on a tie', () => {
    expect(nearestStrike([100, 200, 300], 149)).toBe(100);
    expect(nearestStrike([100, 200, 300], 150)).toBe(100);
    expect(nearestStrike([100, 200, 300], 151)).toBe(200);
    expect(nearestStrike([], 150)).toBeUndefined();
  });
});
