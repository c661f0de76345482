// Cancel all and close all: both read the gateway's order book at the moment of the call, never the
// watcher's last poll (an order placed a moment before is in the gateway's book before any poll saw
// it), and both cancel what is working one order at a time through `orders.cancel` (journalled like
// any cancel). Close all runs entirely here, so the desk, its hotkey and the tray run the same thing,
// with or without a window.
import { randomUUID } from 'node:crypto';
import type { CancelAllOrderResponse, IpcResult } from '../../contract/index.js';
import type { Clock } from '../../gateway/index.js';
import { cancelSweep, readWorking, runCloseAll } from '../close-all/index.js';
import type { Emit } from './event-bus.js';
import { failResult, okResult } from './results.js';
import type { Handlers } from './router.js';
import type { Session } from './session.js';

export interface CloseAllHandlerDeps {
  session(): Session;
  clock: Clock;
  emit: Emit;
  /** The journalled single cancel and strategy close (the order handlers'). */
  cancel: Handlers['orders.cancel'];
  closePosition: Handlers['orders.closePosition'];
  /** The journalled gateway cancel-all; `orderids`: what was working before it (for an unknown outcome). */
  cancelAllOrder(
    s: Session,
    request: { strategy: string },
    orderids: string[],
  ): Promise<IpcResult<CancelAllOrderResponse>>;
}

export function closeAllHandlers(
  d: CloseAllHandlerDeps,
): Pick<Handlers, 'orders.cancelAll' | 'orders.closeAll'> {
  const sleep = (ms: number) => new Promise<void>((resolve) => d.clock.setTimer(resolve, ms));
  /** One close all at a time: a second press while one runs would race its cancels and reads. */
  let closing = false;

  return {
    async 'orders.cancelAll'(input) {
      const s = d.session();
      const strategy = input?.strategy ?? s.profile.strategy;
      // Reads ahead of polling: the trader is waiting on them.
      const reads = s.client.withPriority('order');
      const every = () => true;
      // Every order working now, whatever its strategy: the gateway's cancel-all is account-wide.
      const before = await readWorking(reads, every);
      const orderids = before.ok ? before.value.map((o) => o.orderid) : s.watcher.openOrderIds();
      const r = await d.cancelAllOrder(s, { strategy }, orderids);
      // Refused, or its outcome unknown (the watcher settles it from the book): nothing more is sent.
      if (!r.ok) return r;
      // The gateway's answer is not taken for "none left": upstream's cancel-all leaves trigger-pending
      // orders working. Whatever the book still shows working is cancelled one by one.
      const sweep = await cancelSweep({
        read: () => readWorking(reads, every),
        cancel: (o) => d.cancel({ orderid: o.orderid, strategy: o.strategy ?? strategy }),
        sleep,
      });
      const canceled = [...new Set([...r.value.canceled_orders, ...sweep.cancelled])];
      if (sweep.clear)
        return okResult({
          ...r.value,
          canceled_orders: canceled,
          failed_cancellations: [],
          message: `Cancelled ${canceled.length}; no order left working`,
        });
      if (sweep.readError)
        return okResult({
          ...r.value,
          canceled_orders: canceled,
          message: `${r.value.message}; whether any order is left working is not known (${sweep.readError})`,
        });
      return okResult({
        ...r.value,
        canceled_orders: canceled.filter((id) => !sweep.left.some((o) => o.orderid === id)),
        failed_cancellations: sweep.left.map(({ orderid, message }) => ({ orderid, message })),
        message: `Cancelled ${canceled.length}; ${sweep.left.length} still working`,
      });
    },

    async 'orders.closeAll'(input) {
      if (closing) return failResult('conflict', 'Close all is already running: its steps show as it goes');
      closing = true;
      try {
        const s = d.session();
        const strategy = input?.strategy ?? s.profile.strategy;
        const runId = randomUUID();
        const result = await runCloseAll({
          strategy,
          client: s.client.withPriority('order'),
          cancel: (o) => d.cancel({ orderid: o.orderid, strategy: o.strategy ?? strategy }),
          close: () => d.closePosition({ strategy }),
          progress: (p) =>
            d.emit('orders.closeAllProgress', {
              profileId: s.profile.id,
              time: d.clock.now(),
              runId,
              strategy,
              steps: p.steps,
              ...(p.verdict ? { verdict: p.verdict } : {}),
              ...(p.text ? { text: p.text } : {}),
            }),
          sleep,
        });
        // The books everyone sees (desk, tray) catch up before the verdict is answered: a poll that
        // was in flight during the close publishes its older views first, then this one the flat ones.
        await s.watcher.pollNow();
        return okResult(result);
      } finally {
        closing = false;
      }
    },
  };
}
