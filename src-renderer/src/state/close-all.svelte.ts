// Close all for the strategy, step by step and reported as it goes: (1) cancel the strategy's
// working orders (one left working could reopen what is closed), (2) close its positions
// (`orders.closePosition`), (3) verify flat: each instrument's strategy exposure read back
// (`books.positionsOpen`), or, where the gateway has no such read, the account's position book.
// Before asking, it compares the strategy's exposure with the account's net position per
// instrument: when they differ, closing one can leave (or open) the other, and the dialog says so.
import type {
  BridgeApi,
  IpcError,
  OrderSnapshot,
  PositionQueryInput,
  PositionView,
} from '../../../src-main/contract/index.js';
import { formatQty } from '../lib/format';
import { displayName, isOrderExchange, productsFor } from '../lib/instrument';
import { isWorking } from '../lib/order-status';
import type { ConfirmState } from './confirm.svelte';

export type StepState = 'waiting' | 'running' | 'done' | 'failed' | 'skipped';
export interface CloseStep {
  id: 'cancel' | 'close' | 'verify';
  label: string;
  state: StepState;
  detail?: string;
}

export interface Exposure {
  position: PositionView;
  /** The strategy's own exposure; undefined when the gateway cannot say (not_offered) or failed. */
  strategy?: number;
  error?: IpcError;
}

export interface CloseAllOptions {
  /** The strategy closed; the core uses the profile's when absent. */
  strategy?: string;
  /** Verification reads: how many, and the wait between them (fills settle on the next poll). */
  verifyAttempts?: number;
  verifyDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Called once a run ends, whatever its outcome (the desk re-reads its books). */
  onFinished?: () => void | Promise<void>;
}

const LABELS: Record<CloseStep['id'], string> = {
  cancel: 'Cancel working orders',
  close: 'Close positions',
  verify: 'Verify flat',
};

const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class CloseAllFlow {
  steps = $state<CloseStep[]>([]);
  running = $state(false);
  /** The last run's verdict in one line (flat, not flat, refused). */
  outcome = $state<{ ok: boolean; text: string } | undefined>();

  readonly #bridge: BridgeApi;
  readonly #confirm: ConfirmState;
  readonly #options: CloseAllOptions;

  constructor(bridge: BridgeApi, confirm: ConfirmState, options: CloseAllOptions = {}) {
    this.#bridge = bridge;
    this.#confirm = confirm;
    this.#options = options;
  }

  #query(p: PositionView): PositionQueryInput | undefined {
    const product = productsFor(p.exchange).find((x) => x === p.product.toUpperCase());
    if (!product || !isOrderExchange(p.exchange)) return undefined;
    const strategy = this.#options.strategy;
    return { symbol: p.symbol, exchange: p.exchange, product, ...(strategy ? { strategy } : {}) };
  }

  /**
   * The strategy's exposure beside the account's net quantity for every row of the position book,
   * flat ones too: a strategy can hold what another offsets to an account-wide 0.
   */
  async exposures(positions: readonly PositionView[]): Promise<Exposure[]> {
    return Promise.all(
      positions.map(async (position): Promise<Exposure> => {
        const q = this.#query(position);
        if (!q) return { position };
        const r = await this.#bridge.invoke('books.positionsOpen', q);
        return r.ok ? { position, strategy: r.value.quantity } : { position, error: r.error };
      }),
    );
  }

  /** Asks first (with any disagreement spelled out), then runs the three steps. */
  async request(positions: readonly PositionView[], orders: readonly OrderSnapshot[]): Promise<boolean> {
    if (this.running) return false;
    const exposures = await this.exposures(positions);
    const working = this.#ownWorking(orders);
    const warnings: string[] = [];
    for (const e of exposures) {
      const name = `${displayName(e.position.symbol)} ${e.position.product}`;
      if (e.strategy !== undefined && e.strategy !== e.position.quantity)
        warnings.push(
          `${name}: this strategy holds ${formatQty(e.strategy, { signed: true })}, the account ${formatQty(e.position.quantity, { signed: true })}. ` +
            `Closing the strategy leaves ${formatQty(e.position.quantity - e.strategy, { signed: true })} in the account.`,
        );
      else if (e.error && e.error.kind !== 'not_offered')
        warnings.push(`${name}: the strategy's exposure could not be read (${e.error.message}).`);
    }
    if (exposures.some((e) => e.error?.kind === 'not_offered' && e.position.quantity !== 0))
      warnings.push(
        "This gateway cannot report a strategy's exposure: the account's positions are shown; other strategies' positions stay open.",
      );
    const open = exposures.filter((e) => e.position.quantity !== 0 || (e.strategy ?? 0) !== 0).length;
    const yes = await this.#confirm.ask({
      title: 'Close all positions of the strategy?',
      lines: [
        `1. Cancel ${formatQty(working.length)} working order${working.length === 1 ? '' : 's'} of the strategy.`,
        `2. Close its positions at market (${formatQty(open)} open in the account).`,
        '3. Read the positions back until they show flat.',
      ],
      warnings,
      confirmLabel: 'Close all',
      cancelLabel: 'Keep positions',
    });
    if (!yes) return false;
    return this.run(exposures, working);
  }

  /** The working orders the strategy placed (orders the gateway does not attribute count as its own). */
  #ownWorking(orders: readonly OrderSnapshot[]): OrderSnapshot[] {
    const strategy = this.#options.strategy;
    return orders.filter((o) => isWorking(o.status) && (!strategy || !o.strategy || o.strategy === strategy));
  }

  #set(id: CloseStep['id'], state: StepState, detail?: string): void {
    this.steps = this.steps.map((s) => (s.id === id ? { ...s, state, ...(detail ? { detail } : {}) } : s));
  }

  async run(exposures: readonly Exposure[], working: readonly OrderSnapshot[]): Promise<boolean> {
    this.running = true;
    this.outcome = undefined;
    this.steps = (['cancel', 'close', 'verify'] as const).map((id) => ({
      id,
      label: LABELS[id],
      state: 'waiting',
    }));
    let verdict: { ok: boolean; text: string } = { ok: false, text: 'Stopped' };
    try {
      verdict = !(await this.#cancel(working))
        ? { ok: false, text: 'Stopped: working orders were not all cancelled' }
        : !(await this.#close())
          ? { ok: false, text: 'Stopped: the close was refused' }
          : await this.#verify(exposures);
    } finally {
      for (const s of this.steps) if (s.state === 'waiting') this.#set(s.id, 'skipped');
      // The books are read again before the verdict shows, so "Flat" never sits over a stale row.
      await this.#options.onFinished?.();
      this.outcome = verdict;
      this.running = false;
    }
    return verdict.ok;
  }

  async #cancel(working: readonly OrderSnapshot[]): Promise<boolean> {
    if (working.length === 0) {
      this.#set('cancel', 'done', 'No working orders');
      return true;
    }
    this.#set('cancel', 'running', `Cancelling ${formatQty(working.length)}…`);
    const failures: string[] = [];
    // One at a time: the core's order rate budget is shared with whatever else the desk sends.
    for (const o of working) {
      const r = await this.#bridge.invoke('orders.cancel', {
        orderid: o.orderid,
        ...(o.strategy ? { strategy: o.strategy } : {}),
      });
      if (!r.ok) failures.push(`${o.orderid}: ${r.error.message}`);
    }
    const done = working.length - failures.length;
    if (failures.length > 0) {
      this.#set('cancel', 'failed', `${formatQty(done)} cancelled; not cancelled: ${failures.join('; ')}`);
      return false;
    }
    this.#set('cancel', 'done', `${formatQty(done)} cancelled`);
    return true;
  }

  async #close(): Promise<boolean> {
    this.#set('close', 'running', 'Sending close position…');
    const strategy = this.#options.strategy;
    const r = await this.#bridge.invoke('orders.closePosition', strategy ? { strategy } : undefined);
    if (!r.ok) {
      this.#set('close', 'failed', r.error.message);
      return false;
    }
    this.#set('close', 'done', r.value.message);
    return true;
  }

  async #verify(exposures: readonly Exposure[]): Promise<{ ok: boolean; text: string }> {
    const attempts = this.#options.verifyAttempts ?? 10;
    const delay = this.#options.verifyDelayMs ?? 500;
    const sleep = this.#options.sleep ?? sleepMs;
    this.#set('verify', 'running', 'Reading positions back…');
    let left: string[] = [];
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await sleep(delay);
      const read = await this.#stillOpen(exposures);
      if (read.error) left = [read.error];
      else left = read.open;
      if (!read.error && read.open.length === 0) {
        this.#set('verify', 'done', read.how);
        return { ok: true, text: 'Flat: every position of the strategy is closed' };
      }
    }
    this.#set('verify', 'failed', `Still open: ${left.join(', ')}`);
    return { ok: false, text: `Not flat after ${attempts} reads: ${left.join(', ')}` };
  }

  /** What is still open: by the strategy's exposure where the gateway reports it, else the account's. */
  async #stillOpen(exposures: readonly Exposure[]): Promise<{ open: string[]; how: string; error?: string }> {
    const byStrategy = exposures.filter((e) => e.strategy !== undefined);
    const byAccount = exposures.filter((e) => e.strategy === undefined && e.position.quantity !== 0);
    const open: string[] = [];
    for (const e of byStrategy) {
      const q = this.#query(e.position);
      if (!q) continue;
      const r = await this.#bridge.invoke('books.positionsOpen', q);
      if (!r.ok) return { open, how: '', error: `${e.position.symbol}: ${r.error.message}` };
      if (r.value.quantity !== 0)
        open.push(`${displayName(e.position.symbol)} ${formatQty(r.value.quantity, { signed: true })}`);
    }
    if (byAccount.length > 0) {
      const r = await this.#bridge.invoke('books.positions');
      if (!r.ok) return { open, how: '', error: `positions: ${r.error.message}` };
      for (const e of byAccount) {
        const now = r.value.positions.find(
          (p) =>
            p.symbol === e.position.symbol &&
            p.exchange === e.position.exchange &&
            p.product === e.position.product,
        );
        if (now && now.quantity !== 0)
          open.push(`${displayName(now.symbol)} ${formatQty(now.quantity, { signed: true })}`);
      }
    }
    const how =
      byAccount.length === 0
        ? "Strategy's exposure reads 0 in every instrument"
        : byStrategy.length === 0
          ? 'Account position book shows 0 in every instrument'
          : "Strategy's exposure and the account position book show 0";
    return { open, how };
  }
}
