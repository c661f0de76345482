// Close all for one strategy, in the core, so the desk, its hotkey and the tray run the same thing and
// it works with no window open: (1) cancel every working order of the strategy (open, trigger
// pending) one by one, from the order book read now; (2) close its positions (`closeposition`);
// (3) read the order book and the positions back until both show nothing of the strategy. Each step
// is reported as it goes; a step that failed or whose outcome is unknown ends the run "stopped",
// never "flat".
import type {
  ClosePositionResponse,
  CloseAllProgressEvent,
  CloseAllResult,
  CloseAllStep,
  CloseAllStepId,
  CloseAllVerdict,
  IpcResult,
} from '../../contract/index.js';
import { formatQty } from '../../shared/format.js';
import type { GatewayClient } from '../../gateway/index.js';
import { cancelSweep } from './cancel-sweep.js';
import { describeExposure, ownedBy, readExposures, readWorking, type WorkingOrder } from './fresh-books.js';

export interface CloseAllDeps {
  strategy: string;
  /** Reads go to the gateway now (the order lane of the shared budget). */
  client: GatewayClient;
  /** One journalled `cancelorder` of the order (its strategy, or the run's). */
  cancel(order: WorkingOrder): Promise<IpcResult<unknown>>;
  /** One journalled `closeposition` of the strategy. */
  close(): Promise<IpcResult<ClosePositionResponse>>;
  /** The steps so far, sent whole at each change. */
  progress(p: Pick<CloseAllProgressEvent, 'steps' | 'verdict' | 'text'>): void;
  sleep(ms: number): Promise<void>;
  /** Verification reads at most, and the wait between them (fills may settle a moment later). */
  verifyReads?: number;
  verifyWaitMs?: number;
}

const LABELS: Record<CloseAllStepId, string> = {
  cancel: 'Cancel working orders',
  close: 'Close positions',
  verify: 'Verify flat',
};

export const FLAT_TEXT = 'Flat: every position of the strategy is closed, no order of it working';

export async function runCloseAll(d: CloseAllDeps): Promise<CloseAllResult> {
  let steps: CloseAllStep[] = (['cancel', 'close', 'verify'] as const).map((id) => ({
    id,
    label: LABELS[id],
    state: 'waiting',
  }));
  const set = (id: CloseAllStepId, state: CloseAllStep['state'], detail?: string) => {
    steps = steps.map((s) =>
      s.id === id ? { id, label: s.label, state, ...(detail ? { detail } : {}) } : s,
    );
    d.progress({ steps });
  };
  const owned = ownedBy(d.strategy);
  let cancelled: string[] = [];
  let notCancelled: CloseAllResult['notCancelled'] = [];

  const finish = (verdict: CloseAllVerdict, text: string): CloseAllResult => {
    steps = steps.map((s) => (s.state === 'waiting' ? { ...s, state: 'skipped' } : s));
    d.progress({ steps, verdict, text });
    return { strategy: d.strategy, steps, verdict, text, cancelled, notCancelled };
  };

  // (1) Cancel, one by one, from the book as the gateway states it now.
  set('cancel', 'running', 'Reading the order book…');
  const sweep = await cancelSweep({
    read: () => readWorking(d.client, owned),
    cancel: d.cancel,
    sleep: d.sleep,
    onCancel: (o, r) =>
      set('cancel', 'running', `${r.ok ? 'Cancelled' : 'Not cancelled'} ${o.orderid} (${o.status})…`),
  });
  cancelled = sweep.cancelled;
  notCancelled = sweep.left.map(({ orderid, message }) => ({ orderid, message }));
  if (sweep.readError && !sweep.clear) {
    set(
      'cancel',
      'failed',
      `${formatQty(cancelled.length)} cancelled; the order book could not be read (${sweep.readError})`,
    );
    return finish('stopped', 'Stopped: whether working orders remain is not known (order book not read)');
  }
  if (!sweep.clear) {
    const left = sweep.left.map((o) => `${o.orderid} ${o.symbol}: ${o.message}`).join('; ');
    set('cancel', 'failed', `${formatQty(cancelled.length)} cancelled; still working: ${left}`);
    return finish('stopped', 'Stopped: working orders were not all cancelled');
  }
  set(
    'cancel',
    'done',
    cancelled.length === 0 && sweep.found === 0
      ? 'No working orders'
      : `${formatQty(cancelled.length)} cancelled`,
  );

  // (2) Close.
  set('close', 'running', 'Sending close position…');
  const closed = await d.close();
  if (!closed.ok) {
    const unknown = closed.error.kind === 'unknown_outcome';
    set('close', 'failed', unknown ? `Outcome unknown: ${closed.error.message}` : closed.error.message);
    return finish(
      'stopped',
      unknown
        ? 'Stopped: whether the close went through is not known yet (reconciling from the order book)'
        : `Stopped: the close was refused (${closed.error.message})`,
    );
  }
  set('close', 'done', closed.value.message);

  // (3) Verify: both books read now, until they show nothing of the strategy.
  set('verify', 'running', 'Reading the order book and positions back…');
  const reads = d.verifyReads ?? 10;
  let left = '';
  for (let i = 0; i < reads; i++) {
    if (i > 0) await d.sleep(d.verifyWaitMs ?? 500);
    const working = await readWorking(d.client, owned);
    const exposures = await readExposures(d.client, d.strategy);
    if (!working.ok || !exposures.ok) {
      left = [working, exposures].flatMap((r) => (r.ok ? [] : [r.message])).join('; ');
      continue;
    }
    const parts = [
      ...(exposures.value.open.length > 0
        ? [`still open: ${exposures.value.open.map(describeExposure).join(', ')}`]
        : []),
      ...(working.value.length > 0
        ? [`still working: ${working.value.map((o) => `${o.orderid} ${o.symbol} (${o.status})`).join(', ')}`]
        : []),
    ];
    if (parts.length === 0) {
      set(
        'verify',
        'done',
        exposures.value.byStrategyOnly
          ? "Strategy's exposure reads 0 in every instrument; no working order"
          : 'Position book shows 0 where the strategy cannot be read on its own; no working order',
      );
      return finish('flat', FLAT_TEXT);
    }
    left = parts.join('; ');
  }
  set('verify', 'failed', left.charAt(0).toUpperCase() + left.slice(1));
  return finish('not_flat', `Not flat after ${formatQty(reads)} reads: ${left}`);
}
