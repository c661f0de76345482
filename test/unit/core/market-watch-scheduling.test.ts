// The market watch's scheduler over a scripted client and a ManualClock: reference counting, symbol
// validation once, focus at ≥ 2/s, fair round-robin for the rest, the hidden slow-down.
import { describe, expect, it } from 'vitest';
import { inst, setup } from './market-watch-fixture.js';

describe('reference counting and validation', () => {
  it('polls an instrument while any subscription holds it and stops when the last goes', async () => {
    const { clock, market, client, watch } = setup();
    const a = await watch('quote', [inst('SBIN'), inst('INFY')]);
    const b = await watch('quote', [inst('SBIN')]);
    expect(a.rejected).toEqual([]);
    await clock.advance(2000);
    // One batch per turn, SBIN in it once although two subscriptions hold it.
    const batches = client.sent.filter((s) => s.op === 'multiquotes' && s.at > 0);
    expect(batches.length).toBe(2);
    for (const s of batches) expect(s.symbols).toEqual(['NSE:SBIN', 'NSE:INFY']);

    const first = market.unwatch(a.id);
    expect(first).toEqual({ ok: true, value: { id: a.id, stopped: [inst('INFY')] } });
    const t1 = clock.now();
    await clock.advance(2000);
    const after = client.sent.filter((s) => s.op === 'multiquotes' && s.at > t1);
    expect(after.length).toBe(2);
    for (const s of after) expect(s.symbols).toEqual(['NSE:SBIN']);

    expect(market.unwatch(b.id)).toEqual({ ok: true, value: { id: b.id, stopped: [inst('SBIN')] } });
    const t2 = clock.now();
    await clock.advance(5000);
    expect(client.sent.filter((s) => s.at > t2)).toEqual([]);
    expect(clock.pending).toBe(0);
  });

  it('refuses an unknown subscription id as a typed error', () => {
    const { market } = setup();
    expect(market.unwatch('mw-404')).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });

  it('validates each symbol through the gateway once and emits what it read as the first tick', async () => {
    const { client, watch, of } = setup();
    const w = await watch('quote', [inst('SBIN'), inst('NOPE')]);
    expect(w.symbols).toEqual([inst('SBIN')]);
    expect(w.rejected).toMatchObject([{ symbol: 'NOPE', exchange: 'NSE', error: { kind: 'not_found' } }]);
    // One request validated both; polling then asks for the known one only.
    expect(client.sent[0]).toEqual({ at: 0, op: 'multiquotes', symbols: ['NSE:SBIN', 'NSE:NOPE'] });
    expect(client.sent.slice(1).every((s) => s.symbols.join() === 'NSE:SBIN')).toBe(true);
    expect(of('market.quote')[0]).toMatchObject({ symbol: 'SBIN', ltp: 100.05, change: 0.05 });

    // Known now: a second watch (any mode) costs no validation request.
    const before = client.sent.length;
    await watch('ltp', [inst('SBIN')]);
    expect(client.sent.length).toBe(before);
  });

  it('fails a watch whose symbols are all unknown, subscribing nothing', async () => {
    const { market, clock, client } = setup();
    const r = await market.watch({ mode: 'depth', symbols: [inst('NOPE')], focus: true });
    expect(r).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    expect(market.stats().subscriptions).toBe(0);
    await clock.advance(2000);
    expect(client.count('depth')).toBe(0);
  });

  it('fails the watch with the gateway error when validation cannot reach it', async () => {
    const { market, client } = setup();
    client.failWith = { kind: 'network', message: 'cannot reach the gateway: ECONNREFUSED' };
    const r = await market.watch({ mode: 'quote', symbols: [inst('SBIN')] });
    expect(r).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(market.stats().subscriptions).toBe(0);
  });
});

describe('focus and fair sharing', () => {
  it('polls the focused depth at 2.5/s and shares 1/s round-robin among the rest', async () => {
    const { clock, client, watch, of } = setup();
    await watch('quote', [inst('SBIN'), inst('INFY')]);
    await watch('depth', [inst('TCS')]);
    await watch('depth', [inst('HDFCBANK')]);
    await watch('depth', [inst('RELIANCE')], true);
    // Measured over [1 s, 11 s): past the validations and first polls of t = 0.
    await clock.advance(11_000);
    const focus = client.count('depth', 'NSE:RELIANCE', 1000, 11_000);
    const shares = [
      client.count('multiquotes', undefined, 1000, 11_000),
      client.count('depth', 'NSE:TCS', 1000, 11_000),
      client.count('depth', 'NSE:HDFCBANK', 1000, 11_000),
    ];
    expect(focus).toBe(25);
    // 1/s shared by three: 10 turns, 4, 3 and 3 in some order.
    expect(shares.reduce((a, b) => a + b, 0)).toBe(10);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    // Each answer is one event, stamped when it arrived.
    const ticks = of('market.depth').filter(
      (e) => e.symbol === 'RELIANCE' && e.time >= 1000 && e.time < 11_000,
    );
    expect(ticks.length).toBe(focus);
    // Five levels a side at most, as the contract says.
    expect(of('market.depth')[0]?.bids).toHaveLength(5);
  });

  it('gives the focus to the newest focused watch and back when it goes', async () => {
    const { clock, client, market, watch } = setup();
    const a = await watch('depth', [inst('TCS')], true);
    const b = await watch('depth', [inst('INFY')], true);
    await clock.advance(4000);
    expect(client.count('depth', 'NSE:INFY', 1, 4001)).toBe(10);
    // TCS is an ordinary depth now: the shared 1/s.
    expect(client.count('depth', 'NSE:TCS', 1, 4001)).toBe(4);
    market.unwatch(b.id);
    await clock.advance(4000);
    expect(client.count('depth', 'NSE:TCS', 4001, 8001)).toBe(10);
    expect(client.count('depth', 'NSE:INFY', 4001, 8001)).toBe(0);
    market.unwatch(a.id);
  });

  it('polls four times slower while the window is hidden', async () => {
    const { clock, client, market, watch } = setup();
    await watch('quote', [inst('SBIN')]);
    await watch('depth', [inst('RELIANCE')], true);
    await clock.advance(8000);
    // Visible, over (0, 8 s]: focus every 400 ms, the quote batch every second.
    expect(client.count('depth', undefined, 1, 8001)).toBe(20);
    expect(client.count('multiquotes', undefined, 1, 8001)).toBe(8);
    market.setVisibility(false);
    await clock.advance(8000);
    // Hidden, over (8 s, 16 s]: every 1.6 s and every 4 s.
    expect(client.count('depth', undefined, 8001, 16_001)).toBe(5);
    expect(client.count('multiquotes', undefined, 8001, 16_001)).toBe(2);
    // Visible again: the overdue focus goes at once.
    await clock.advance(500);
    const n = client.count('depth');
    market.setVisibility(true);
    await clock.advance(0);
    expect(client.count('depth')).toBe(n + 1);
  });
});
