// Close all for the strategy: the desk asks first, the core does it. Before asking, it compares the
// strategy's exposure with the account's net position per instrument: when they differ, closing one
// can leave (or open) the other, and the dialog says so. Once confirmed, one call (`orders.closeAll`)
// runs the three steps in the core, from the gateway's books read at that moment, not the desk's last
// poll: (1) cancel every working order of the strategy, one by one; (2) close its positions; (3) read
// both books back until they show flat. The step list follows the core's `orders.closeAllProgress`
// events, and the verdict is the core's answer; the tray and the hotkey land here too.
import type {
  BridgeApi,
  CloseAllProgressEvent,
  CloseAllStep,
  IpcError,
  OrderSnapshot,
  PositionQueryInput,
  PositionView,
} from '@contract';
import { formatQty } from '@shared/format.js';
import { displayName, isOrderExchange, productsFor } from '../lib/instrument';
import { isWorking } from '../lib/order-status';
import type { ConfirmState } from './confirm.svelte';

export type StepState = CloseAllStep['state'];
export type { CloseAllStep as CloseStep };

const LABELS: Record<CloseAllStep['id'], string> = {
  cancel: 'Cancel working orders',
  close: 'Close positions',
  verify: 'Verify flat',
};

export interface Exposure {
  position: PositionView;
  /** The strategy's own exposure; undefined when the gateway cannot say (not_offered) or failed. */
  strategy?: number;
  error?: IpcError;
}

export interface CloseAllOptions {
  /** The strategy closed; the core uses the profile's when absent. */
  strategy?: string;
  /** Called once a run ends, whatever its outcome (the desk re-reads its books). */
  onFinished?: () => void | Promise<void>;
}

export class CloseAllFlow {
  steps = $state<CloseAllStep[]>([]);
  running = $state(false);
  /** The last run's verdict in one line (flat, not flat, stopped, not run), and when it came (ms). */
  outcome = $state<{ ok: boolean; text: string; at: number } | undefined>();

  readonly #bridge: BridgeApi;
  readonly #confirm: ConfirmState;
  readonly #options: CloseAllOptions;

  constructor(bridge: BridgeApi, confirm: ConfirmState, options: CloseAllOptions = {}) {
    this.#bridge = bridge;
    this.#confirm = confirm;
    this.#options = options;
    // The core's steps as they go: this desk's run, or one another caller started.
    bridge.on('orders.closeAllProgress', (e) => this.#progress(e));
  }

  #progress(e: CloseAllProgressEvent): void {
    this.steps = e.steps;
    // A run this desk did not start ends here; this desk's own verdict waits for the books' re-read.
    if (!this.running && e.verdict && e.text)
      this.outcome = { ok: e.verdict === 'flat', text: e.text, at: Date.now() };
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

  /** Asks first (with any disagreement spelled out), then has the core run the three steps. */
  async request(positions: readonly PositionView[], orders: readonly OrderSnapshot[]): Promise<boolean> {
    if (this.running) return false;
    const exposures = await this.exposures(positions);
    // Only a count for the dialog: the core cancels from the gateway's book as it is when it runs.
    const onScreen = this.#ownWorking(orders).length;
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
        `1. Cancel every working order of the strategy, as the gateway's order book shows it now (${formatQty(onScreen)} on screen).`,
        `2. Close its positions at market (${formatQty(open)} open in the account).`,
        '3. Read the order book and positions back until they show flat.',
      ],
      warnings,
      confirmLabel: 'Close all',
      cancelLabel: 'Keep positions',
    });
    if (!yes) return false;
    return this.run();
  }

  /** The working orders the strategy placed (orders the gateway does not attribute count as its own). */
  #ownWorking(orders: readonly OrderSnapshot[]): OrderSnapshot[] {
    const strategy = this.#options.strategy;
    return orders.filter((o) => isWorking(o.status) && (!strategy || !o.strategy || o.strategy === strategy));
  }

  /** The core's close all, its steps shown as they go; true only when the core says flat. */
  async run(): Promise<boolean> {
    if (this.running) return false;
    this.running = true;
    this.outcome = undefined;
    this.steps = (['cancel', 'close', 'verify'] as const).map((id) => ({
      id,
      label: LABELS[id],
      state: 'waiting',
    }));
    let verdict: { ok: boolean; text: string } = { ok: false, text: 'Stopped' };
    try {
      const strategy = this.#options.strategy;
      const r = await this.#bridge.invoke('orders.closeAll', strategy ? { strategy } : undefined);
      if (r.ok) {
        this.steps = r.value.steps;
        verdict = { ok: r.value.verdict === 'flat', text: r.value.text };
      } else {
        this.steps = this.steps.map((s) => (s.state === 'waiting' ? { ...s, state: 'skipped' } : s));
        verdict = { ok: false, text: `Close all not run: ${r.error.message}` };
      }
    } finally {
      // The books are read again before the verdict shows, so "Flat" never sits over a stale row.
      await this.#options.onFinished?.();
      this.outcome = { ...verdict, at: Date.now() };
      this.running = false;
    }
    return verdict.ok;
  }
}
