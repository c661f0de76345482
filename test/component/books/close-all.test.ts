import { describe, expect, it } from 'vitest';
import type { CloseAllResult, CloseAllStep, CloseAllVerdict, IpcResult } from '@contract';
import { CloseAllFlow } from '../../../src-renderer/src/state/close-all.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { deferred, FakeBridge } from '../../support/component/fake-bridge';
import { flush, position } from '../../support/component/books-fixtures';

function setup(exposure: (symbol: string, read: number) => number | 'not_offered', onFinished?: () => void) {
  const reads = new Map<string, number>();
  const b = new FakeBridge().answer('books.positionsOpen', (q) => {
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
  });
  const confirm = new ConfirmState();
  const flow = new CloseAllFlow(b, confirm, { strategy: 'OrderDesk', onFinished });
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
const FLAT = 'Flat: every position of the strategy is closed, no order of it working';
const LABELS = { cancel: 'Cancel working orders', close: 'Close positions', verify: 'Verify flat' } as const;

function step(
  id: CloseAllStep['id'],
  state: CloseAllStep['state'] = 'waiting',
  detail?: string,
): CloseAllStep {
  return { id, label: LABELS[id], state, ...(detail ? { detail } : {}) };
}
function progress(steps: CloseAllStep[]) {
  return { seq: 1, profileId: 'paper', time: 0, runId: 'r1', strategy: 'OrderDesk', steps };
}
function result(steps: CloseAllStep[], verdict: CloseAllVerdict, text: string): CloseAllResult {
  return { strategy: 'OrderDesk', steps, verdict, text, cancelled: [], notCancelled: [] };
}

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

  it("where the gateway cannot report a strategy's exposure, it says so before asking", async () => {
    const { b, confirm, flow } = setup(() => 'not_offered');
    const done = flow.request([SBIN], []);
    const asked = await answer(confirm, false);
    expect(await done).toBe(false);
    expect(asked?.warnings).toEqual([
      "This gateway cannot report a strategy's exposure: the account's positions are shown; other strategies' positions stay open.",
    ]);
    expect(b.callsTo('orders.closeAll')).toEqual([]);
  });

  it("runs the core's close all (one call), not cancels of the orders on screen: a LIMIT placed a moment before is the core's to find", async () => {
    const refreshed: unknown[] = [];
    const { b, confirm, flow } = setup(
      () => 10,
      () => void refreshed.push(flow.outcome),
    );
    const answered = deferred<IpcResult<CloseAllResult>>();
    b.answer('orders.closeAll', () => answered.promise);
    // The desk's book shows no working order: the one just placed is not in it yet.
    const done = flow.request([SBIN], []);
    const asked = await answer(confirm, true);
    expect(asked?.lines[0]).toBe(
      "1. Cancel every working order of the strategy, as the gateway's order book shows it now (0 on screen).",
    );
    for (let i = 0; i < 20 && b.callsTo('orders.closeAll').length === 0; i++) await flush();
    expect(b.callsTo('orders.closeAll')).toEqual([
      { channel: 'orders.closeAll', input: { strategy: 'OrderDesk' } },
    ]);
    expect(flow.running).toBe(true);

    // The step list follows the core's progress events.
    b.emit(
      'orders.closeAllProgress',
      progress([step('cancel', 'running', 'Cancelled 7 (open)…'), step('close'), step('verify')]),
    );
    expect(flow.steps.map((s) => [s.id, s.state, s.detail])).toEqual([
      ['cancel', 'running', 'Cancelled 7 (open)…'],
      ['close', 'waiting', undefined],
      ['verify', 'waiting', undefined],
    ]);
    const steps = [
      step('cancel', 'done', '1 cancelled'),
      step('close', 'done', 'All Open Positions SquaredOff'),
      step('verify', 'done', "Strategy's exposure reads 0 in every instrument; no working order"),
    ];
    answered.resolve({ ok: true, value: result(steps, 'flat', FLAT) });
    expect(await done).toBe(true);
    expect(flow.steps.map((s) => s.state)).toEqual(['done', 'done', 'done']);
    expect(flow.outcome).toEqual({ ok: true, text: FLAT, at: expect.any(Number) });
    // The books were read again before the verdict showed.
    expect(refreshed).toEqual([undefined]);
    // Nothing of the old renderer-side flow: no cancels from the desk's list, no close of its own.
    expect(b.callsTo('orders.cancel')).toEqual([]);
    expect(b.callsTo('orders.closePosition')).toEqual([]);
    expect(b.calls.map((c) => c.channel)).toEqual(['books.positionsOpen', 'orders.closeAll']);
  });

  it('a run the core stopped is said in words, never flat', async () => {
    const { b, confirm, flow } = setup(() => 10);
    const steps = [
      step('cancel', 'failed', '0 cancelled; still working: 7 SBIN: Order already complete'),
      step('close', 'skipped'),
      step('verify', 'skipped'),
    ];
    b.answer('orders.closeAll', () => ({
      ok: true,
      value: result(steps, 'stopped', 'Stopped: working orders were not all cancelled'),
    }));
    const done = flow.request([SBIN], []);
    await answer(confirm, true);
    expect(await done).toBe(false);
    expect(flow.steps.map((s) => s.state)).toEqual(['failed', 'skipped', 'skipped']);
    expect(flow.outcome).toEqual({
      ok: false,
      text: 'Stopped: working orders were not all cancelled',
      at: expect.any(Number),
    });
  });

  it('a refused call (one already running) is shown as not run', async () => {
    const { b, confirm, flow } = setup(() => 10);
    b.answer('orders.closeAll', () => ({
      ok: false,
      error: { kind: 'conflict', message: 'Close all is already running: its steps show as it goes' },
    }));
    const done = flow.request([SBIN], []);
    await answer(confirm, true);
    expect(await done).toBe(false);
    expect(flow.outcome).toEqual({
      ok: false,
      text: 'Close all not run: Close all is already running: its steps show as it goes',
      at: expect.any(Number),
    });
    expect(flow.running).toBe(false);
  });
});
