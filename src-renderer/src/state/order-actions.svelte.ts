// Over 300 lines: the books' order actions share one notice, one busy set and one confirm step.
// What the Orders and Positions panes do to orders: modify in place (price, quantity, trigger,
// checked as the ticket checks a new order), cancel, cancel all, read one order's status, and exit a
// position with a smart order to 0 or reverse it with one order. Every action answers in words (the
// notice); the settings' per-action confirmations decide whether modify and cancel ask first; cancel
// all, an exit and a reverse always ask. One action at a time per order: a second Enter while one is on its way is ignored.
import type { BridgeApi, IpcError, OrderSnapshot, PositionView } from '@contract';
import { SvelteSet } from 'svelte/reactivity';
import { formatPrice, formatQty } from '@shared/format.js';
import { displayName } from '../lib/instrument';
import { isWorking } from '../lib/order-status';
import {
  cancelAllSummary,
  cancelAllText,
  refusedNotice,
  checkModify,
  describeOrder,
  exitRequest,
  reverseRequest,
  modifyDraftOf,
  modifyRequest,
  type ModifyDraft,
  type ModifyIssue,
  type Notice,
} from '../lib/order-requests';
import type { TicketInstrument, TicketLimits } from '../lib/ticket-rules';
import type { ConfirmState } from './confirm.svelte';

/** A reverse reads the position book back up to this many times, this far apart, for the new net. */
const REVERSE_READS = 4;
const REVERSE_READ_GAP_MS = 300;

const positionKey = (p: Pick<PositionView, 'exchange' | 'symbol' | 'product'>): string =>
  `${p.exchange}:${p.symbol}:${p.product.toUpperCase()}`;

export interface StatusDetail {
  orderid: string;
  loading: boolean;
  order?: OrderSnapshot;
  error?: IpcError;
}

export interface OrderActionsOptions {
  /** Called after an exit was placed (the desk re-reads its books rather than wait for a poll). */
  onChanged?: () => void | Promise<void>;
  /**
   * Whether settings ask before this action (the desk's ConfirmationsState); without it the
   * settings are read on each action.
   */
  asks?: (action: 'modify' | 'cancel') => boolean;
}

export class OrderActions {
  notice = $state<Notice | undefined>();
  editing = $state<ModifyDraft | undefined>();
  /** The instrument and limits the modify form is checked against (loaded when it opens). */
  editInstrument = $state<TicketInstrument | undefined>();
  editLimits = $state<TicketLimits | undefined>();
  editLoadError = $state<string | undefined>();
  detail = $state<StatusDetail | undefined>();
  /** Order ids (and `*` for cancel all) with an action on its way. */
  readonly busy = new SvelteSet<string>();

  readonly #bridge: BridgeApi;
  readonly #confirm: ConfirmState;
  readonly #options: OrderActionsOptions;

  readonly editIssues: ModifyIssue[] = $derived(
    this.editing ? checkModify(this.editing, this.editInstrument, this.editLimits) : [],
  );

  constructor(bridge: BridgeApi, confirm: ConfirmState, options: OrderActionsOptions = {}) {
    this.#bridge = bridge;
    this.#confirm = confirm;
    this.#options = options;
  }

  // ---- modify ----
  /** Opens the modify form on a working order, its fields set to the order's values. */
  async startModify(order: OrderSnapshot): Promise<void> {
    if (!isWorking(order.status)) {
      this.notice = {
        scope: 'orders',
        tone: 'error',
        text: `${describeOrder(order)} is ${order.status}: only open orders can be modified`,
      };
      return;
    }
    this.editing = modifyDraftOf(order);
    this.editInstrument = undefined;
    this.editLoadError = undefined;
    const [sym, settings] = await Promise.all([
      this.#bridge.invoke('market.symbol', { symbol: order.symbol, exchange: order.exchange }),
      this.#bridge.invoke('settings.get'),
    ]);
    if (this.editing?.order.orderid !== order.orderid) return;
    if (sym.ok) this.editInstrument = sym.value;
    else
      this.editLoadError = `Tick and lot of ${order.symbol} unknown (${sym.error.message}); the gateway will check them`;
    if (settings.ok) this.editLimits = settings.value.risk;
  }

  cancelModify(): void {
    this.editing = undefined;
  }

  /** Sends the modify form (after the confirmation, if settings ask for one). */
  async submitModify(): Promise<boolean> {
    const d = this.editing;
    if (!d || this.busy.has(d.order.orderid)) return false;
    if (this.editIssues.length > 0) {
      this.notice = {
        scope: 'orders',
        tone: 'error',
        text: this.editIssues.map((i) => i.message).join('; '),
      };
      return false;
    }
    const o = d.order;
    const tick = this.editInstrument?.tickSize;
    const request = modifyRequest(d, tick);
    if (!request) return false;
    const { input, what } = request;
    if (await this.#needsConfirm('modify')) {
      const yes = await this.#confirm.ask({
        title: 'Modify order?',
        lines: [
          `${what}.`,
          `Order ${o.orderid}: now ${formatQty(o.quantity)} @ ${formatPrice(o.price, tick)}.`,
        ],
        confirmLabel: 'Modify order',
        cancelLabel: 'Keep as is',
        tone: 'normal',
      });
      if (!yes) return false;
    }
    const r = await this.#run(o.orderid, () => this.#bridge.invoke('orders.modify', input));
    if (!r) return false;
    if (r.ok) {
      this.editing = undefined;
      this.notice = {
        scope: 'orders',
        tone: 'ok',
        text: `${what}: sent (order ${r.value.orderid})`,
      };
      return true;
    }
    this.notice = refusedNotice('Modify', r.error);
    // An unknown outcome may have gone through: the form closes rather than invite a resend.
    if (r.error.kind === 'unknown_outcome') this.editing = undefined;
    return false;
  }

  // ---- cancel ----
  async cancel(order: OrderSnapshot): Promise<boolean> {
    if (this.busy.has(order.orderid)) return false;
    if (!isWorking(order.status)) {
      this.notice = {
        scope: 'orders',
        tone: 'error',
        text: `${describeOrder(order)} is ${order.status}: nothing to cancel`,
      };
      return false;
    }
    const what = `${describeOrder(order)} ${formatQty(order.quantity)} (order ${order.orderid})`;
    if (await this.#needsConfirm('cancel')) {
      const yes = await this.#confirm.ask({
        title: 'Cancel order?',
        lines: [`Cancel ${what}.`],
        confirmLabel: 'Cancel order',
        cancelLabel: 'Keep order',
      });
      if (!yes) return false;
    }
    const r = await this.#run(order.orderid, () =>
      this.#bridge.invoke('orders.cancel', {
        orderid: order.orderid,
        ...(order.strategy ? { strategy: order.strategy } : {}),
      }),
    );
    if (!r) return false;
    this.notice = r.ok
      ? { scope: 'orders', tone: 'ok', text: `Cancel sent: ${what}` }
      : refusedNotice('Cancel', r.error);
    return r.ok;
  }

  /** Cancels every open and trigger-pending order of the account, after an explicit yes. */
  async cancelAll(orders: readonly OrderSnapshot[]): Promise<boolean> {
    if (this.busy.has('*')) return false;
    const working = orders.filter((o) => isWorking(o.status));
    const yes = await this.#confirm.ask({
      title: 'Cancel all open orders?',
      lines: [
        working.length === 1
          ? 'Cancels the 1 open or trigger-pending order.'
          : `Cancels all ${formatQty(working.length)} open and trigger-pending orders.`,
        // Upstream's cancel-all is account-wide (every strategy), and so is the paper gateway's.
        'The gateway cancels every working order of the account, whichever strategy placed it.',
      ],
      confirmLabel: 'Cancel all orders',
      cancelLabel: 'Keep orders',
    });
    if (!yes) return false;
    const r = await this.#run('*', () => this.#bridge.invoke('orders.cancelAll'));
    if (!r) return false;
    if (!r.ok) {
      this.notice = refusedNotice('Cancel all', r.error);
      return false;
    }
    const { canceled_orders: done, failed_cancellations: left } = r.value;
    this.notice = {
      scope: 'orders',
      tone: left.length > 0 ? 'error' : 'ok',
      text: cancelAllText(done, left),
      summary: cancelAllSummary(done, left),
      at: Date.now(),
    };
    return left.length === 0;
  }

  // ---- status ----
  /** Reads one order's status from the gateway for the detail panel. */
  async showStatus(order: Pick<OrderSnapshot, 'orderid' | 'strategy'>): Promise<void> {
    this.detail = { orderid: order.orderid, loading: true };
    const r = await this.#bridge.invoke('orders.status', {
      orderid: order.orderid,
      ...(order.strategy ? { strategy: order.strategy } : {}),
    });
    if (this.detail?.orderid !== order.orderid) return;
    this.detail = r.ok
      ? { orderid: order.orderid, loading: false, order: r.value }
      : { orderid: order.orderid, loading: false, error: r.error };
  }

  closeStatus(): void {
    this.detail = undefined;
  }

  // ---- positions ----
  /** Exits one position: a MARKET smart order to 0, after an explicit yes. */
  async exitPosition(p: PositionView): Promise<boolean> {
    const key = `exit:${p.exchange}:${p.symbol}:${p.product}`;
    if (this.busy.has(key)) return false;
    const exit = exitRequest(p);
    if (!exit.ok) {
      this.notice = { scope: 'positions', tone: 'error', text: exit.reason };
      return false;
    }
    const { side, what, input } = exit;
    const yes = await this.#confirm.ask({
      title: 'Exit position?',
      lines: [
        `Net ${formatQty(p.quantity, { signed: true })} ${displayName(p.symbol)} ${p.product}.`,
        `Sends a smart order to bring it to 0: ${what}.`,
      ],
      confirmLabel: `${side === 'SELL' ? 'Sell' : 'Buy'} to exit`,
      cancelLabel: 'Keep position',
    });
    if (!yes) return false;
    const r = await this.#run(key, () => this.#bridge.invoke('orders.smart', input));
    if (!r) return false;
    if (!r.ok) {
      this.notice = refusedNotice('Exit', r.error, 'positions');
      return false;
    }
    this.notice = {
      scope: 'positions',
      tone: 'ok',
      text: r.value.orderid
        ? `Exit sent: ${what} (order ${r.value.orderid})`
        : `Exit: ${r.value.message ?? 'the gateway placed no order'}`,
    };
    void this.#options.onChanged?.();
    return true;
  }

  /**
   * Reverses one position with one order of twice its net on the other side, after a yes that says
   * exactly what goes; then reads the position book back and says what the gateway shows there.
   */
  async reversePosition(p: PositionView): Promise<boolean> {
    const key = `reverse:${p.exchange}:${p.symbol}:${p.product}`;
    if (this.busy.has(key)) return false;
    const rev = reverseRequest(p);
    if (!rev.ok) {
      this.notice = { scope: 'positions', tone: 'error', text: rev.reason };
      return false;
    }
    const yes = await this.#confirm.ask({
      title: 'Reverse position?',
      lines: [`${rev.what}.`, 'One order at market; the position book is read back after it.'],
      confirmLabel: `${rev.side === 'SELL' ? 'Sell' : 'Buy'} to reverse`,
      cancelLabel: 'Keep position',
    });
    if (!yes) return false;
    const r = await this.#run(key, () => this.#bridge.invoke('orders.place', rev.input));
    if (!r) return false;
    if (!r.ok) {
      this.notice = refusedNotice('Reverse', r.error, 'positions');
      return false;
    }
    await this.#options.onChanged?.();
    // Never assumed: the notice says what the gateway's position book shows, read until it shows the
    // opposite net or REVERSE_READS reads have passed (a market order fills a moment after its answer).
    const sent = `Reverse sent (order ${r.value.orderid})`;
    let net: number | undefined;
    for (let i = 0; i < REVERSE_READS && net !== rev.target; i++) {
      if (i > 0) await new Promise((ok) => setTimeout(ok, REVERSE_READ_GAP_MS));
      const book = await this.#bridge.invoke('books.positions');
      if (!book.ok) {
        this.notice = {
          scope: 'positions',
          tone: 'pending',
          text: `${sent}; the position book could not be read (${book.error.message})`,
        };
        return true;
      }
      net = book.value.positions.find((x) => positionKey(x) === positionKey(p))?.quantity ?? 0;
    }
    if (net === undefined) return true;
    this.notice = {
      scope: 'positions',
      tone: net === rev.target ? 'ok' : 'pending',
      text: `${sent}; the position book shows ${displayName(p.symbol)} ${p.product} ${formatQty(net, { signed: true })}`,
    };
    return true;
  }

  // ---- helpers ----
  async #needsConfirm(action: 'modify' | 'cancel'): Promise<boolean> {
    if (this.#options.asks) return this.#options.asks(action);
    const r = await this.#bridge.invoke('settings.get');
    // Settings unreadable: ask, the safe side.
    return r.ok ? r.value.confirmations[action] : true;
  }

  /** Runs one action for a key, marking it busy; undefined when one was already running. */
  async #run<T>(key: string, call: () => Promise<T>): Promise<T | undefined> {
    if (this.busy.has(key)) return undefined;
    this.busy.add(key);
    try {
      return await call();
    } finally {
      this.busy.delete(key);
    }
  }
}
