// Tray, shortcut and notification actions: they bring the window forward and tell the page; order
// actions only ask the page to confirm.
import { describe, expect, it, vi } from 'vitest';
import type { IpcResult } from '../../../src-main/contract/index.js';
import { shellActions } from '../../../src-main/desktop/shell-actions.js';

function setup(answer: IpcResult<unknown> | Error = { ok: true, value: {} }) {
  const calls: string[] = [];
  const commands: unknown[] = [];
  const invoke = vi.fn((channel: string, input: unknown) => {
    calls.push(`invoke ${channel} ${JSON.stringify(input)}`);
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  });
  const warn = vi.fn();
  const a = shellActions({
    showWindow: () => calls.push('show'),
    command: (c) => (calls.push(`command ${c.command}`), commands.push(c)),
    invoke,
    quit: () => calls.push('quit'),
    logger: { warn },
  });
  return { a, calls, commands, invoke, warn };
}

describe('shellActions', () => {
  it('cancel all and close all show the window and ask the page to confirm, calling nothing', () => {
    const { a, calls, invoke } = setup();
    a.requestCancelAll();
    a.requestCloseAll();
    expect(calls).toEqual(['show', 'command confirm-cancel-all', 'show', 'command confirm-close-all']);
    expect(invoke).not.toHaveBeenCalled();
  });

  it("with no page to ask in (renderer gone), the tray's close all asks natively and runs the core's close all", async () => {
    const asked: string[] = [];
    const reported: string[] = [];
    const invoke = vi.fn((_channel: string, _input: unknown) =>
      Promise.resolve<IpcResult<unknown>>({
        ok: true,
        value: {
          verdict: 'flat',
          text: 'Flat: every position of the strategy is closed, no order of it working',
        },
      }),
    );
    const make = (yes: boolean) =>
      shellActions({
        showWindow: () => asked.push('show'),
        command: (c) => asked.push(`command ${c.command}`),
        invoke,
        quit: () => undefined,
        logger: { warn: vi.fn() },
        pageReady: () => false,
        confirm: async (q) => (asked.push(`native ${q.title} [${q.cancelLabel}|${q.confirmLabel}]`), yes),
        report: (title, body) => reported.push(`${title}: ${body}`),
      });
    make(false).requestCloseAll();
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    expect(asked).toEqual(['native Close all positions of the strategy? [Keep positions|Close all]']);
    expect(invoke).not.toHaveBeenCalled();

    make(true).requestCloseAll();
    await vi.waitFor(() => expect(reported).toHaveLength(1));
    expect(invoke.mock.calls).toEqual([['orders.closeAll', undefined]]);
    expect(reported).toEqual([
      'Close all: flat: Flat: every position of the strategy is closed, no order of it working',
    ]);
  });

  it('a page that can ask is shown and asked, as before', () => {
    const { a, calls } = setup();
    a.requestCloseAll();
    expect(calls).toEqual(['show', 'command confirm-close-all']);
  });

  it('a notification click opens the window at its order', () => {
    const { a, calls, commands } = setup();
    a.showOrder('240514000001');
    expect(calls).toEqual(['show', 'command show-order']);
    expect(commands).toEqual([{ command: 'show-order', orderid: '240514000001' }]);
  });

  it('show ticket and positions bring the window forward with their pane', () => {
    const { a, commands } = setup();
    a.showTicket();
    a.showPositions();
    expect(commands).toEqual([{ command: 'show-ticket' }, { command: 'show-positions' }]);
  });

  it('pause and switch go through the router', async () => {
    const { a, invoke } = setup();
    a.setAlertsPaused(true);
    a.switchProfile('zerodha');
    expect(invoke.mock.calls).toEqual([
      ['alerts.pause', { paused: true }],
      ['profiles.switch', { id: 'zerodha' }],
    ]);
  });

  it('a refused or failed call is logged, not lost', async () => {
    const refused = setup({ ok: false, error: { kind: 'not_found', message: 'no profile x' } });
    refused.a.switchProfile('x');
    await vi.waitFor(() => expect(refused.warn).toHaveBeenCalledTimes(1));
    expect(refused.warn.mock.calls[0]?.[1]).toEqual({ kind: 'not_found', message: 'no profile x' });
    const failed = setup(new Error('core stopped'));
    failed.a.setAlertsPaused(false);
    await vi.waitFor(() =>
      expect(failed.warn).toHaveBeenCalledWith('tray: alerts.pause failed', { error: 'core stopped' }),
    );
  });
});
