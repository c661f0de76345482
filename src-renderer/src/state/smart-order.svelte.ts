// The ticket's Smart mode (a target position): the core's preview (orders.previewSmart, decided by the
// same rules module the paper gateway fills with, src-main/shared/smart-order.ts), the working orders
// that would carry the position past the target, sending it once, and the comparison of what the
// gateway did with what the preview said.
import type { BridgeApi, OrderSnapshot, SmartOrderIpcInput, SmartPreview } from '@contract';
import { formatQty } from '@shared/format.js';
import { isWorking } from '@shared/order-status.js';
import { DebouncedPreview } from './debounced-preview.svelte';
import { SendOnce, type SendFailure } from './send-once.svelte';

export interface WorkingExposure {
  /** Working orders on the same symbol, exchange and product. */
  count: number;
  /** Their unfilled quantity, signed (BUY +, SELL −). */
  pending: number;
  /** Where the position ends once the smart order and those orders fill. */
  eventual: number;
}

/** Working orders that move the same position the smart order targets (undefined when none). */
export function workingExposure(
  orders: readonly OrderSnapshot[],
  leg: Pick<SmartOrderIpcInput, 'symbol' | 'exchange' | 'product' | 'position_size'>,
): WorkingExposure | undefined {
  let count = 0;
  let pending = 0;
  for (const o of orders) {
    if (!isWorking(o.status.toLowerCase())) continue;
    if (o.symbol !== leg.symbol || o.exchange !== leg.exchange || o.product !== leg.product) continue;
    const open = Math.max(0, o.quantity - o.filledQuantity);
    if (open === 0) continue;
    count += 1;
    pending += o.action.toUpperCase() === 'SELL' ? -open : open;
  }
  if (count === 0 || pending === 0) return undefined;
  return { count, pending, eventual: leg.position_size + pending };
}

/** The warning a trader reads before sending (the gateway sizes from the position alone). */
export function exposureWarning(x: WorkingExposure, symbol: string, target: number): string {
  const side = x.pending > 0 ? 'BUY' : 'SELL';
  const orders = x.count === 1 ? '1 working order' : `${x.count} working orders`;
  return `${orders} on ${symbol} (${side} ${formatQty(Math.abs(x.pending))} unfilled) would carry the position to ${formatQty(x.eventual, { signed: true })}, past the target ${formatQty(target, { signed: true })}: the gateway sizes a smart order from the position alone`;
}

export type SmartOutcome =
  | { kind: 'placed'; orderid: string; message?: string }
  | { kind: 'no_action'; message: string }
  | SendFailure;

/** How the gateway's answer compared with the preview shown when it was sent. */
export type SmartCheck =
  | { kind: 'matched'; text: string }
  | { kind: 'differs'; text: string }
  | { kind: 'unverified'; text: string };

const PREVIEW_DELAY_MS = 200;

export class SmartOrderState {
  /** The signed target position as typed. */
  targetText = $state('');
  outcome = $state.raw<SmartOutcome | undefined>();
  check = $state.raw<SmartCheck | undefined>();

  readonly #once = new SendOnce();
  readonly #preview: DebouncedPreview<SmartOrderIpcInput, SmartPreview>;
  readonly #bridge: BridgeApi;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
    this.#preview = new DebouncedPreview(
      (input) => bridge.invoke('orders.previewSmart', input),
      PREVIEW_DELAY_MS,
      'No preview: ',
    );
  }

  get preview(): SmartPreview | undefined {
    return this.#preview.preview;
  }

  get previewProblem(): string | undefined {
    return this.#preview.previewProblem;
  }

  get previewing(): boolean {
    return this.#preview.previewing;
  }

  /** The target as a whole signed number, or why it is not one. */
  get target(): { ok: true; value: number } | { ok: false; message: string } {
    const t = this.targetText.trim();
    if (t === '') return { ok: false, message: 'Type the target position (negative for short, 0 to exit)' };
    if (!/^[+-]?\d+$/.test(t) || !Number.isSafeInteger(Number(t)))
      return { ok: false, message: 'Target position must be a whole number of shares, such as 100 or -50' };
    return { ok: true, value: Number(t) };
  }

  /** The orders.smart input from the ticket's order and the target; undefined while incomplete. */
  requestFor(base: Omit<SmartOrderIpcInput, 'position_size'> | undefined): SmartOrderIpcInput | undefined {
    const t = this.target;
    if (!base || !t.ok) return undefined;
    return { ...base, position_size: t.value };
  }

  /** The preview of exactly this request, once the core has answered for it. */
  previewOf(request: SmartOrderIpcInput | undefined): SmartPreview | undefined {
    return this.#preview.of(request);
  }

  get sending(): boolean {
    return this.#once.sending;
  }

  /** Presses ignored by the send-once guard (a double Enter). */
  get ignored(): number {
    return this.#once.ignored;
  }

  /** The duplicate guard held back exactly this request (the regular ticket's "Send anyway"). */
  canConfirmDuplicate(request: SmartOrderIpcInput | undefined): boolean {
    return this.#once.canConfirmDuplicate(request && JSON.stringify(request));
  }

  isSent(request: SmartOrderIpcInput | undefined): boolean {
    return this.#once.isSent(request && JSON.stringify(request));
  }

  /** Asks the core for the preview after a short pause in typing; a later ask wins. */
  schedulePreview(request: SmartOrderIpcInput | undefined): void {
    this.#preview.schedule(request, this.target.ok ? undefined : this.target.message);
  }

  /** The preview now (before a send, and in tests). */
  async refreshPreview(request: SmartOrderIpcInput): Promise<SmartPreview | undefined> {
    return this.#preview.refresh(request);
  }

  stop(): void {
    this.#preview.stop();
  }

  /**
   * Sends the smart order once, then compares what the gateway did with `shown`, the preview on screen
   * when it was sent. Returns the check (a difference is for the caller to raise as an alert).
   */
  async send(
    request: SmartOrderIpcInput,
    shown: SmartPreview | undefined,
    confirmDuplicate = false,
  ): Promise<SmartCheck | undefined> {
    const outcome = await this.#once.send(JSON.stringify(request), confirmDuplicate, {
      call: () =>
        this.#bridge.invoke(
          'orders.smart',
          confirmDuplicate ? { ...request, confirmDuplicate: true } : request,
        ),
      sent: (v): SmartOutcome =>
        v.orderid
          ? { kind: 'placed', orderid: v.orderid, ...(v.message ? { message: v.message } : {}) }
          : { kind: 'no_action', message: v.message ?? 'The gateway placed no order' },
      onStart: () => (this.check = undefined),
      settle: (o) => (this.outcome = o),
    });
    if (!outcome) return undefined;
    const check = await this.#compare(outcome, shown);
    this.check = check;
    return check;
  }

  async #compare(outcome: SmartOutcome, shown: SmartPreview | undefined): Promise<SmartCheck | undefined> {
    if (outcome.kind === 'refused' || outcome.kind === 'unknown' || outcome.kind === 'queued')
      return undefined;
    if (!shown) return { kind: 'unverified', text: 'No preview was on screen to compare with' };
    const said = shown.decision;
    if (outcome.kind === 'no_action') {
      return said.kind === 'none'
        ? { kind: 'matched', text: 'As previewed: no action' }
        : {
            kind: 'differs',
            text: `The preview said ${said.order.action} ${formatQty(said.order.quantity)}; the gateway placed nothing (${outcome.message})`,
          };
    }
    if (said.kind === 'none')
      return {
        kind: 'differs',
        text: `The preview said no action; the gateway placed order ${outcome.orderid}`,
      };
    const status = await this.#bridge.invoke('orders.status', { orderid: outcome.orderid });
    if (!status.ok)
      return {
        kind: 'unverified',
        text: `Order ${outcome.orderid} could not be read to compare with the preview: ${status.error.message}`,
      };
    const got = status.value;
    const want = said.order;
    if (got.action.toUpperCase() === want.action && got.quantity === want.quantity)
      return {
        kind: 'matched',
        text: `As previewed: ${want.action} ${formatQty(want.quantity)} (order ${outcome.orderid})`,
      };
    return {
      kind: 'differs',
      text: `The preview said ${want.action} ${formatQty(want.quantity)}; the gateway placed ${got.action.toUpperCase()} ${formatQty(got.quantity)} (order ${outcome.orderid})`,
    };
  }
}
