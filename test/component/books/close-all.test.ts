import { describe, expect, it } from 'vitest';
import type { PositionView } from '../../../src-main/contract/index.js';
import { CloseAllFlow } from '../../../src-renderer/src/state/close-all.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { FakeBridge } from '../helpers/fake-bridge';
import { flush, order, position } from './fixtures';

const noSleep = async () => undefined;

function setup(exposure: (symbol: string, read: number) => number | 'not_offered', onFinished?: () => void) {
  const reads = new Map<string, number>();
  const b = new FakeBridge()
    .answer('books.positionsOpen', (q) => {
      const symbol = q?.symbol ?? '';
      const n = (reads.get(symbol) ?? 0) + 1;
      reads.set(symbol, n);
      const v = exposure(symbol, n);
      return v === 'not_offered'
        ? {
            ok: false,
            error: { kind: 'not_offered', message: 'positionsopen is not offered by this gateway' },
          }
        : { ok: true, value: { status: 'success', quantity: v } };
    })
    .answer('orders.cancel', (i) => ({ ok: true, value: { status: 'success', orderid: i?.orderid ?? '' } }))
    .answer('orders.closePosition', () => ({
      ok: true,
      value: { status: 'success', message: 'All open positions squared off' },
    }));
  const confirm = new ConfirmState();
  const flow = new CloseAllFlow(b, confirm, {
    strategy: 'OrderDesk',
    sleep: noSleep,
    verifyAttempts: 5,
    onFinished,
  });
  return { b, confirm, flow };
}

/** Answers the dialog once it shows, and returns what it asked. */
async function answer(confirm: ConfirmState, yes: boolean) {
  for (let i = 0; i < 20 && !confirm.request; i++) await flush();
  const asked = confirm.request;
  confirm.answer(yes);
  return asked;
}

const SBIN = position({ symbol: 'SBIN', quantity: 10 });

describe('close all for the strategy', () => {
  it("warns first when the strategy's exposure and the account's net position disagree", async () => {
    const { b, confirm, flow } = setup(() => 4);
    const done = flow.request([SBIN], []);
    const asked = await answer(confirm, false);
    expect(await done).toBe(false);
    expect(asked?.warnings).toEqual([
      'SBIN MIS: this strategy holds +4, the account +10. Closing the strategy leaves +6 in the account.',
    ]);
    expect(b.callsTo('orders.closePosition')).toHaveLength(0);
    expect(b.callsTo('orders.cancel')).toHaveLength(0);
  });

  it('also warns where the account is flat but the strategy is not (closing it opens the account)', async () => {
    const { confirm, flow } = setup(() => -5);
    const done = flow.request([position({ symbol: 'INFY', quantity: 0, mtm: 0 })], []);
    const asked = await answer(confirm, false);
    await done;
    expect(asked?.warnings?.[0]).toBe(
      'INFY MIS: this strategy holds -5, the account 0. Closing the strategy leaves +5 in the account.',
    );
  });

  it('cancels the strategy’s working orders, closes, then reads back until flat, reporting each step', async () => {
    // The exposure read before asking (10), then twice while verifying: still 10, then 0.
    const seenAtRefresh: unknown[] = [];
    const { b, confirm, flow } = setup(
      (_s, n) => (n <= 2 ? 10 : 0),
      () => void seenAtRefresh.push(flow.outcome),
    );
    const orders = [
      order({ orderid: 'MINE', status: 'open', strategy: 'OrderDesk' }),
      order({ orderid: 'MINE-SL', status: 'trigger pending', strategy: 'OrderDesk' }),
      order({ orderid: 'OTHERS', status: 'open', strategy: 'scalper' }),
      order({ orderid: 'DONE', status: 'complete', strategy: 'OrderDesk' }),
    ];
    const done = flow.request([SBIN], orders);
    const asked = await answer(confirm, true);
    expect(asked?.warnings).toEqual([]);
    expect(asked?.lines[0]).toBe('1. Cancel 2 working orders of the strategy.');
    expect(await done).toBe(true);

    expect(b.callsTo('orders.cancel').map((c) => (c.input as { orderid: string }).orderid)).toEqual([
      'MINE',
      'MINE-SL',
    ]);
    expect(b.callsTo('orders.closePosition')).toEqual([
      { channel: 'orders.closePosition', input: { strategy: 'OrderDesk' } },
    ]);
    // In order: the exposure read, both cancels, the close, then the reads back.
    expect(b.calls.map((c) => c.channel)).toEqual([
      'books.positionsOpen',
      'orders.cancel',
      'orders.cancel',
      'orders.closePosition',
      'books.positionsOpen',
      'books.positionsOpen',
    ]);
    expect(flow.steps.map((s) => [s.id, s.state, s.detail])).toEqual([
      ['cancel', 'done', '2 cancelled'],
      ['close', 'done', 'All open positions squared off'],
      ['verify', 'done', "Strategy's exposure reads 0 in every instrument"],
    ]);
    expect(flow.outcome).toEqual({ ok: true, text: 'Flat: every position of the strategy is closed' });
    // The books were re-read once, before the verdict was shown.
    expect(seenAtRefresh).toEqual([undefined]);
  });

  it('stops before closing when a working order could not be cancelled', async () => {
    const { b, confirm, flow } = setup(() => 10);
    b.answer('orders.cancel', () => ({
      ok: false,
      error: { kind: 'bad_input', message: 'Order already complete' },
    }));
    const done = flow.request([SBIN], [order({ orderid: 'W1', status: 'open', strategy: 'OrderDesk' })]);
    await answer(confirm, true);
    expect(await done).toBe(false);
    expect(b.callsTo('orders.closePosition')).toHaveLength(0);
    expect(flow.steps.map((s) => s.state)).toEqual(['failed', 'skipped', 'skipped']);
    expect(flow.steps[0]?.detail).toBe('0 cancelled; not cancelled: W1: Order already complete');
  });

  it('says not flat when the reads never reach 0', async () => {
    const { confirm, flow } = setup(() => 10);
    const done = flow.request([SBIN], []);
    await answer(confirm, true);
    expect(await done).toBe(false);
    expect(flow.steps[2]).toMatchObject({ id: 'verify', state: 'failed', detail: 'Still open: SBIN +10' });
    expect(flow.outcome?.ok).toBe(false);
  });

  it("where the gateway cannot report a strategy's exposure, it says so and verifies on the account's book", async () => {
    const { b, confirm, flow } = setup(() => 'not_offered');
    let reads = 0;
    b.answer('books.positions', () => {
      reads += 1;
      const rows: PositionView[] = [{ ...SBIN, quantity: reads === 1 ? 10 : 0 }];
      return { ok: true, value: { positions: rows, totalMtm: 0 } };
    });
    const done = flow.request([SBIN], []);
    const asked = await answer(confirm, true);
    expect(asked?.warnings).toEqual([
      "This gateway cannot report a strategy's exposure: the account's positions are shown; other strategies' positions stay open.",
    ]);
    expect(await done).toBe(true);
    expect(reads).toBe(2);
    expect(flow.steps[2]?.detail).toBe('Account position book shows 0 in every instrument');
  });
});
