// The market watch's scheduler over a scripted client and a ManualClock: backoff, fallback without
// multiquotes, and profile switches.
import { describe, expect, it } from 'vitest';
import { FakeClient, inst, setup } from './market-watch-fixture.js';

describe('failures', () => {
  it('reports a failing source once per run of failures and backs off', async () => {
    const { clock, client, watch, of } = setup();
    await watch('depth', [inst('RELIANCE')], true);
    const n0 = client.count('depth');
    client.failWith = { kind: 'server', message: 'gateway error (HTTP 500)', httpStatus: 500 };
    const from = clock.now();
    await clock.advance(20_000);
    // 1, 2, 4, 8 s apart: a handful of tries, not 50.
    const tries = client.count('depth', undefined, from);
    expect(tries).toBeGreaterThanOrEqual(4);
    expect(tries).toBeLessThanOrEqual(6);
    expect(of('market.error')).toMatchObject([
      { mode: 'depth', symbols: [inst('RELIANCE')], error: { kind: 'server', httpStatus: 500 } },
    ]);
    client.failWith = undefined;
    await clock.advance(16_000);
    expect(client.count('depth')).toBeGreaterThan(n0 + tries + 3);
  });

  it('stops asking for a symbol the gateway no longer knows, saying so once', async () => {
    const { clock, client, watch, of } = setup();
    await watch('quote', [inst('SBIN'), inst('INFY')]);
    client.known.delete('NSE:INFY');
    await clock.advance(3000);
    expect(of('market.error')).toMatchObject([
      { mode: 'quote', symbols: [inst('INFY')], error: { kind: 'not_found' } },
    ]);
    const last = client.sent.at(-1);
    expect(last?.symbols).toEqual(['NSE:SBIN']);
  });

  it('falls back to one quotes request per symbol where the gateway has no multiquotes', async () => {
    const { clock, client, watch, of } = setup();
    client.multiquotesOffered = false;
    const w = await watch('ltp', [inst('SBIN'), inst('NOPE')]);
    expect(w.rejected.map((r) => r.symbol)).toEqual(['NOPE']);
    const from = clock.now() + 1;
    await clock.advance(3000);
    expect(client.count('multiquotes', undefined, from)).toBe(0);
    expect(client.count('quotes', 'NSE:SBIN', from)).toBe(3);
    expect(of('market.ltp').at(-1)).toMatchObject({ symbol: 'SBIN', exchange: 'NSE', ltp: 100.05 });
  });
});

describe('profile switch', () => {
  it('keeps the subscriptions, polls the new gateway, drops the old one’s late answers', async () => {
    const { clock, client, market, watch, of, events } = setup();
    const w = await watch('quote', [inst('SBIN'), inst('INFY')]);
    await watch('depth', [inst('RELIANCE')], true);
    let open!: () => void;
    client.gate = new Promise((r) => (open = r));
    await clock.advance(1000);
    expect(client.outstanding).toBeGreaterThan(0);

    const next = new FakeClient(clock, 200.1);
    next.known.delete('NSE:INFY');
    market.setSession('broker', next);
    const from = events.length;
    open();
    await clock.advance(3000);
    // Nothing from the old profile after the switch; the new gateway answers for everything.
    expect(events.slice(from).every((e) => (e.payload as { profileId: string }).profileId === 'broker')).toBe(
      true,
    );
    expect(of('market.depth', from).length).toBeGreaterThanOrEqual(7);
    expect(of('market.quote', from).at(-1)).toMatchObject({ symbol: 'SBIN', ltp: 200.1 });
    // INFY is unknown there: one error, then left out.
    expect(of('market.error', from)).toMatchObject([
      { profileId: 'broker', mode: 'quote', symbols: [inst('INFY')], error: { kind: 'not_found' } },
    ]);
    expect(next.sent.filter((s) => s.op === 'multiquotes').at(-1)?.symbols).toEqual(['NSE:SBIN']);
    // The subscription id from before the switch still works.
    expect(market.unwatch(w.id)).toMatchObject({ ok: true });
  });

  it('stops every timer on stop', async () => {
    const { clock, client, market, watch } = setup();
    await watch('depth', [inst('RELIANCE')], true);
    market.stop();
    const n = client.sent.length;
    await clock.advance(5000);
    expect(client.sent.length).toBe(n);
    expect(clock.pending).toBe(0);
    expect(await market.watch({ mode: 'ltp', symbols: [inst('SBIN')] })).toMatchObject({
      ok: false,
      error: { kind: 'internal' },
    });
  });
});
