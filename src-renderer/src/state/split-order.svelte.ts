// The ticket's Split mode: the child orders before sending (orders.previewSplit: the core's plan from
// src-main/shared/split-plan.ts, the one the paper gateway places by), the freeze quantity suggested
// as the split size, what each child would break (freeze, lot, per-order limits), sending it once,
// and each child's result as the gateway answers and the order book moves.
import type { BridgeApi, SplitOrderIpcInput, SplitOrderResponse, SplitPreview } from '@contract';
import { formatMoney, formatQty } from '@shared/format.js';
import { decOf, mulDec, parseDecimal, compareDec, toPlainText } from '@shared/decimal.js';
import type { TicketInstrument, TicketLimits } from '../lib/ticket-rules';
import { DebouncedPreview } from './debounced-preview.svelte';
import { SendOnce, type SendFailure } from './send-once.svelte';

export type SplitOutcome = { kind: 'sent'; response: SplitOrderResponse } | SendFailure;

export type SplitChildResult = SplitOrderResponse['results'][number];

const PREVIEW_DELAY_MS = 150;

/** Why a child of this size would be refused, in words (none: an empty list). */
export function childProblems(
  size: number,
  inst: Pick<TicketInstrument, 'lotSize' | 'freezeQuantity'> | undefined,
  limits: TicketLimits | undefined,
  unitPrice: number | undefined,
): string[] {
  const out: string[] = [];
  const freeze = inst?.freezeQuantity;
  if (freeze && freeze > 0 && size > freeze)
    out.push(`A child of ${formatQty(size)} exceeds the freeze quantity ${formatQty(freeze)}`);
  const lot = inst?.lotSize ?? 1;
  if (Number.isInteger(lot) && lot > 1 && size % lot !== 0)
    out.push(`A child of ${formatQty(size)} is not a whole number of lots of ${formatQty(lot)}`);
  if (limits && size > limits.maxQuantityPerOrder)
    out.push(
      `A child of ${formatQty(size)} exceeds your limit of ${formatQty(limits.maxQuantityPerOrder)} per order`,
    );
  const price = unitPrice === undefined ? undefined : parseDecimal(unitPrice);
  const max = limits ? parseDecimal(limits.maxValuePerOrder) : undefined;
  if (price && max) {
    const value = mulDec(decOf(size), price);
    if (compareDec(value, max) > 0)
      out.push(
        `A child worth ${formatMoney(toPlainText(value))} exceeds your limit of ${formatMoney(limits?.maxValuePerOrder ?? 0)} per order`,
      );
  }
  return out;
}

export class SplitOrderState {
  splitSizeText = $state('');
  outcome = $state.raw<SplitOutcome | undefined>();

  readonly #once = new SendOnce();
  readonly #preview: DebouncedPreview<SplitOrderIpcInput, SplitPreview>;
  readonly #bridge: BridgeApi;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
    this.#preview = new DebouncedPreview(
      (input) => bridge.invoke('orders.previewSplit', input),
      PREVIEW_DELAY_MS,
    );
  }

  get preview(): SplitPreview | undefined {
    return this.#preview.preview;
  }

  get previewProblem(): string | undefined {
    return this.#preview.previewProblem;
  }

  get splitSize(): { ok: true; value: number } | { ok: false; message: string } {
    const t = this.splitSizeText.trim();
    if (t === '') return { ok: false, message: 'Type the split size (the largest child order)' };
    const n = Number(t);
    if (!/^\d+$/.test(t) || !Number.isSafeInteger(n) || n <= 0)
      return { ok: false, message: 'Split size must be a whole number of shares above 0' };
    return { ok: true, value: n };
  }

  /** The instrument's freeze quantity as the split size, unless the trader typed one. */
  suggest(freeze: number | null | undefined): void {
    if (this.splitSizeText === '' && freeze && freeze > 0) this.splitSizeText = String(freeze);
  }

  requestFor(base: Omit<SplitOrderIpcInput, 'splitsize'> | undefined): SplitOrderIpcInput | undefined {
    const s = this.splitSize;
    if (!base || !s.ok) return undefined;
    return { ...base, splitsize: s.value };
  }

  previewOf(request: SplitOrderIpcInput | undefined): SplitPreview | undefined {
    return this.#preview.of(request);
  }

  get sending(): boolean {
    return this.#once.sending;
  }

  get ignored(): number {
    return this.#once.ignored;
  }

  canConfirmDuplicate(request: SplitOrderIpcInput | undefined): boolean {
    return this.#once.canConfirmDuplicate(request && JSON.stringify(request));
  }

  isSent(request: SplitOrderIpcInput | undefined): boolean {
    return this.#once.isSent(request && JSON.stringify(request));
  }

  schedulePreview(request: SplitOrderIpcInput | undefined): void {
    this.#preview.schedule(request, this.splitSize.ok ? undefined : this.splitSize.message);
  }

  async refreshPreview(request: SplitOrderIpcInput): Promise<SplitPreview | undefined> {
    return this.#preview.refresh(request);
  }

  stop(): void {
    this.#preview.stop();
  }

  /** Sends the split once; a double Enter or a resend of the same request is ignored and counted. */
  async send(request: SplitOrderIpcInput, confirmDuplicate = false): Promise<SplitOutcome | undefined> {
    return this.#once.send(JSON.stringify(request), confirmDuplicate, {
      call: () =>
        this.#bridge.invoke(
          'orders.split',
          confirmDuplicate ? { ...request, confirmDuplicate: true } : request,
        ),
      sent: (response) => ({ kind: 'sent' as const, response }),
      onStart: () => (this.outcome = undefined),
      settle: (outcome) => (this.outcome = outcome),
    });
  }
}
