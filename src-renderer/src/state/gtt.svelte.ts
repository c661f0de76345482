// The desk's GTT orders: the GTT book (active, or all with the cancelled and triggered ones) read from
// the core, refreshed while shown and after each action; placing from the ticket's GTT mode; modify
// and cancel per row, asking first as the order actions do (settings.confirmations). Every failure
// is said in words; an unknown outcome says the core is reconciling it from the GTT book.
import { SvelteSet } from 'svelte/reactivity';
import type { BridgeApi, GttModifyIpcInput, GttPlaceIpcInput, GttRecord, IpcError } from '@contract';
import { formatPrice, formatQty } from '@shared/format.js';
import { buildModify, formOf, gttTypeText, type GttForm } from '../lib/gtt-rules';
import type { ConfirmState } from './confirm.svelte';

/** How often the book is read while the pane is shown. */
export const GTT_REFRESH_MS = 5000;

export type GttFilter = 'active' | 'all';
export interface GttNotice {
  tone: 'ok' | 'error' | 'pending';
  text: string;
  /** What refused it, when something did (`unresolved_duplicate`: the trader may send it anyway). */
  kind?: IpcError['kind'];
}

function failedText(what: string, e: IpcError): GttNotice {
  if (e.kind === 'unknown_outcome')
    return {
      tone: 'pending',
      text: `${what}: outcome unknown, reconciling from the GTT book (it is not sent again)`,
    };
  // An identical GTT is still in doubt: the message names it and its time.
  if (e.kind === 'unresolved_duplicate')
    return { tone: 'error', kind: e.kind, text: `${what} held back, not sent: ${e.message}` };
  return { tone: 'error', kind: e.kind, text: `${what} refused: ${e.message}` };
}

/** `BUY SBIN NSE` with its triggers, as the confirmations and notices say it. */
export function describeGtt(row: GttRecord): string {
  const side = row.legs[0]?.action.toUpperCase() ?? '';
  const triggers = row.trigger_prices.map((p) => formatPrice(p)).join(' / ');
  return `${gttTypeText(row)} GTT ${side} ${formatQty(row.legs[0]?.quantity ?? 0)} ${row.symbol} ${row.exchange} @ ${triggers}`;
}

export class GttState {
  rows = $state.raw<GttRecord[] | undefined>();
  filter = $state<GttFilter>('active');
  problem = $state<string | undefined>();
  notice = $state<GttNotice | undefined>();
  readonly busy = new SvelteSet<string>();
  sending = $state(false);
  /** The row being modified and its form. */
  editing = $state<{ row: GttRecord; form: GttForm } | undefined>();
  readonly #bridge: BridgeApi;
  readonly #confirm: ConfirmState | undefined;
  #seq = 0;

  constructor(bridge: BridgeApi, confirm?: ConfirmState) {
    this.#bridge = bridge;
    this.#confirm = confirm;
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    const r = await this.#bridge.invoke('gtt.book', { status: this.filter });
    if (seq !== this.#seq) return;
    if (r.ok) {
      this.rows = r.value.gtts;
      this.problem = undefined;
    } else
      this.problem =
        r.error.kind === 'not_offered'
          ? 'This gateway has no GTT orders'
          : `GTT book not read: ${r.error.message}`;
  }

  /** Reads now and every GTT_REFRESH_MS; returns the stop. */
  watch(): () => void {
    void this.load();
    const timer = setInterval(() => void this.load(), GTT_REFRESH_MS);
    return () => clearInterval(timer);
  }

  setFilter(f: GttFilter): void {
    this.filter = f;
    void this.load();
  }

  async #asks(action: 'place' | 'modify' | 'cancel'): Promise<boolean> {
    const r = await this.#bridge.invoke('settings.get');
    return r.ok ? r.value.confirmations[action] : true;
  }

  #mark(id: string, on: boolean): void {
    if (on) this.busy.add(id);
    else this.busy.delete(id);
  }

  /** Places a GTT (the ticket's mode confirms first); true when the gateway took it. */
  async place(
    request: GttPlaceIpcInput,
  ): Promise<{ ok: true; id: string } | { ok: false; notice: GttNotice }> {
    if (this.sending) return { ok: false, notice: { tone: 'error', text: 'A GTT is being sent' } };
    this.sending = true;
    try {
      const r = await this.#bridge.invoke('gtt.place', request);
      void this.load();
      if (r.ok) return { ok: true, id: r.value.trigger_id };
      return { ok: false, notice: failedText('GTT', r.error) };
    } finally {
      this.sending = false;
    }
  }

  startModify(row: GttRecord): void {
    if (row.status !== 'active') {
      this.notice = { tone: 'error', text: `${describeGtt(row)} is ${row.status}: nothing to modify` };
      return;
    }
    this.editing = { row, form: formOf(row) };
  }

  cancelModify(): void {
    this.editing = undefined;
  }

  /** The edit form's request, or why it cannot be sent. */
  modifyRequest(): { ok: true; request: GttModifyIpcInput } | { ok: false; message: string } {
    const e = this.editing;
    if (!e) return { ok: false, message: 'Nothing is being modified' };
    return buildModify(e.row, e.form);
  }

  async submitModify(): Promise<boolean> {
    const e = this.editing;
    const built = this.modifyRequest();
    if (!e) return false;
    if (!built.ok) {
      this.notice = { tone: 'error', text: built.message };
      return false;
    }
    const id = e.row.trigger_id;
    if (this.busy.has(id)) return false;
    if ((await this.#asks('modify')) && this.#confirm) {
      const yes = await this.#confirm.ask({
        title: 'Modify GTT?',
        lines: [`Modify ${describeGtt(e.row)} (${id}).`],
        confirmLabel: 'Modify GTT',
        cancelLabel: 'Keep it',
      });
      if (!yes) return false;
    }
    this.#mark(id, true);
    try {
      const r = await this.#bridge.invoke('gtt.modify', built.request);
      this.notice = r.ok ? { tone: 'ok', text: `Modified: GTT ${id}` } : failedText('Modify', r.error);
      // An unknown outcome may have gone through: the form closes rather than invite a resend.
      if (r.ok || r.error.kind === 'unknown_outcome') this.editing = undefined;
      void this.load();
      return r.ok;
    } finally {
      this.#mark(id, false);
    }
  }

  async cancel(row: GttRecord): Promise<boolean> {
    const id = row.trigger_id;
    if (this.busy.has(id)) return false;
    if (row.status !== 'active') {
      this.notice = { tone: 'error', text: `${describeGtt(row)} is ${row.status}: nothing to cancel` };
      return false;
    }
    if ((await this.#asks('cancel')) && this.#confirm) {
      const yes = await this.#confirm.ask({
        title: 'Cancel GTT?',
        lines: [`Cancel ${describeGtt(row)} (${id}).`],
        confirmLabel: 'Cancel GTT',
        cancelLabel: 'Keep GTT',
        tone: 'danger',
      });
      if (!yes) return false;
    }
    this.#mark(id, true);
    try {
      const r = await this.#bridge.invoke('gtt.cancel', {
        trigger_id: id,
        ...(row.strategy ? { strategy: row.strategy } : {}),
      });
      this.notice = r.ok ? { tone: 'ok', text: `Cancelled: GTT ${id}` } : failedText('Cancel', r.error);
      void this.load();
      return r.ok;
    } finally {
      this.#mark(id, false);
    }
  }
}
