// The ticket's Basket mode: legs added from the ticket or pasted as lines (lib/basket-lines), their
// value and a margin estimate, sending them as one orders.basket once, each leg's result, and named
// baskets saved in settings (settings.baskets).
import type {
  BasketLeg,
  BasketOrderResponse,
  BridgeApi,
  PlaceOrderIpcInput,
  Product,
  SavedBasket,
} from '@contract';
import { parseBasketLines, MAX_BASKET_LINES, type BasketLineError } from '../lib/basket-lines';
import { basketTotals, legIssues } from '../lib/basket-rules';
import type { TicketInstrument, TicketLimits } from '../lib/ticket-rules';
import { quoteOf } from '../lib/multi-quote';
import { MarginAsker } from './margin-ask.svelte';
import { SendOnce, type SendFailure } from './send-once.svelte';

/** An instrument as market.symbol described it, or why it could not. */
type LegInstrument = { ok: true; info: TicketInstrument } | { ok: false; message: string };
const keyOf = (l: Pick<BasketLeg, 'exchange' | 'symbol'>) => `${l.exchange}:${l.symbol}`;

/** settings.baskets holds at most this many (the contract's BASKET_LIMIT). */
export const SAVED_BASKET_LIMIT = 20;

export type BasketOutcome = { kind: 'sent'; response: BasketOrderResponse } | SendFailure;

export class BasketState {
  legs = $state.raw<BasketLeg[]>([]);
  pasteText = $state('');
  pasteErrors = $state.raw<BasketLineError[]>([]);
  /** The product pasted lines take (a line names none). */
  pasteProduct = $state<Product>('MIS');
  /** Last prices by `EXCHANGE:SYMBOL` (market.multiquotes), for market legs' value. */
  ltps = $state.raw<Record<string, number>>({});
  quotesProblem = $state<string | undefined>();
  outcome = $state.raw<BasketOutcome | undefined>();
  /** The legs the outcome answers (the list may change after sending). */
  sentLegs = $state.raw<BasketLeg[]>([]);
  notice = $state<string | undefined>();

  saved = $state.raw<SavedBasket[]>([]);
  savedProblem = $state<string | undefined>();

  /** Lot, tick and freeze of each leg's instrument (market.symbol), by `EXCHANGE:SYMBOL`. */
  instruments = $state.raw<Record<string, LegInstrument>>({});
  /** The risk limits (settings.risk), read with the saved baskets. */
  limits = $state.raw<TicketLimits | undefined>();

  readonly totals = $derived(basketTotals(this.legs, (l) => this.ltps[keyOf(l)]));
  /** Each leg's problems in words (an unknown instrument, lot, tick, freeze, limits); empty when fine. */
  readonly issues = $derived(
    this.legs.map((l) => {
      const inst = this.instruments[keyOf(l)];
      if (inst && !inst.ok) return [inst.message];
      return legIssues(l, inst?.info, this.limits, this.ltps[keyOf(l)]);
    }),
  );
  readonly #once = new SendOnce();
  readonly #key = $derived(this.legs.length > 0 ? JSON.stringify(this.legs) : undefined);
  /** The legs were sent as they stand: another send waits for a change. */
  readonly sent = $derived(this.#once.isSent(this.#key));
  /** The duplicate guard held back exactly these legs: they may be sent deliberately. */
  readonly canConfirmDuplicate = $derived(this.#once.canConfirmDuplicate(this.#key));

  get sending(): boolean {
    return this.#once.sending;
  }

  get ignored(): number {
    return this.#once.ignored;
  }

  readonly #bridge: BridgeApi;
  /** The gateway's margin for the legs (`orders.margin`), asked after a pause in editing. */
  readonly margin: MarginAsker;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
    this.margin = new MarginAsker(bridge);
  }

  /** The ticket's order as a leg (its strategy and confirmations stay with the basket). */
  addFromTicket(request: PlaceOrderIpcInput | undefined): boolean {
    if (!request) {
      this.notice = 'The ticket is not complete: nothing added';
      return false;
    }
    if (this.legs.length >= MAX_BASKET_LINES) {
      this.notice = `A basket holds at most ${MAX_BASKET_LINES} legs`;
      return false;
    }
    const { strategy: _s, confirmDuplicate: _c, ...leg } = request;
    this.legs = [...this.legs, leg as BasketLeg];
    this.notice = `Added ${leg.action} ${leg.quantity} ${leg.symbol}: ${this.legs.length} in the basket`;
    void this.refreshQuotes();
    void this.refreshInstruments();
    return true;
  }

  /** Adds the pasted lines' good legs; bad lines stay in the box with their reasons. */
  addPasted(): number {
    const { legs, errors } = parseBasketLines(this.pasteText, this.pasteProduct);
    const room = MAX_BASKET_LINES - this.legs.length;
    const taken = legs.slice(0, Math.max(0, room));
    this.legs = [...this.legs, ...taken];
    const bad = this.pasteText.split(/\r?\n/).filter((_, i) => errors.some((e) => e.line === i + 1));
    // The good lines leave the box; the bad ones stay to be fixed, their errors numbered as they now stand.
    this.pasteText = bad.join('\n');
    this.pasteErrors = errors.length > 0 ? parseBasketLines(this.pasteText, this.pasteProduct).errors : [];
    const dropped = legs.length - taken.length;
    this.notice =
      `${taken.length} ${taken.length === 1 ? 'leg' : 'legs'} added` +
      (errors.length > 0 ? `, ${errors.length} ${errors.length === 1 ? 'problem' : 'problems'} to fix` : '') +
      (dropped > 0 ? `, ${dropped} left out: at most ${MAX_BASKET_LINES} legs` : '');
    if (taken.length > 0) void this.refreshQuotes();
    void this.refreshInstruments();
    return taken.length;
  }

  remove(index: number): void {
    this.legs = this.legs.filter((_, i) => i !== index);
  }

  clear(): void {
    this.legs = [];
    this.notice = 'Basket cleared';
  }

  /** Last prices for the legs (market legs are valued at them). */
  async refreshQuotes(): Promise<void> {
    const symbols = this.legs
      .filter((l, i) => this.legs.findIndex((m) => keyOf(m) === keyOf(l)) === i)
      .map((l) => ({ symbol: l.symbol, exchange: l.exchange }));
    if (symbols.length === 0) return;
    const r = await this.#bridge.invoke('market.multiquotes', { symbols });
    if (!r.ok) {
      this.quotesProblem = `Last prices could not be read: ${r.error.message}`;
      return;
    }
    this.quotesProblem = undefined;
    const next = { ...this.ltps };
    for (const q of r.value.results) {
      const d = quoteOf(q);
      if (d) next[`${q.exchange}:${q.symbol}`] = d.ltp;
    }
    this.ltps = next;
  }

  /** Sends the legs as one basket, once; a double Enter or a resend of the same legs is ignored. */
  async send(confirmDuplicate = false): Promise<BasketOutcome | undefined> {
    const legs = this.legs;
    return this.#once.send(this.#key, confirmDuplicate, {
      call: () =>
        this.#bridge.invoke('orders.basket', {
          orders: legs,
          ...(confirmDuplicate ? { confirmDuplicate: true } : {}),
        }),
      sent: (response) => ({ kind: 'sent' as const, response }),
      onStart: () => (this.outcome = undefined),
      settle: (outcome) => {
        this.outcome = outcome;
        this.sentLegs = legs;
      },
    });
  }

  /**
   * Reads the saved baskets and limits, and follows later changes (settings.changed carries the
   * settings as saved, newest seq only). Returns the stop.
   */
  start(): () => void {
    let seq = 0;
    const off = this.#bridge.on('settings.changed', (e) => {
      if (e.seq <= seq) return;
      seq = e.seq;
      this.saved = e.settings.baskets;
      this.limits = e.settings.risk;
    });
    void this.loadSaved();
    return off;
  }

  async loadSaved(): Promise<void> {
    const r = await this.#bridge.invoke('settings.get');
    if (!r.ok) {
      this.savedProblem = `Saved baskets could not be read: ${r.error.message}`;
      return;
    }
    this.saved = r.value.baskets;
    this.limits = r.value.risk;
    this.savedProblem = undefined;
  }

  /** Reads each new leg's instrument (lot, tick, freeze), so a leg the rules refuse says so here. */
  async refreshInstruments(): Promise<void> {
    const wanted = this.legs.filter(
      (l, i) => !(keyOf(l) in this.instruments) && this.legs.findIndex((m) => keyOf(m) === keyOf(l)) === i,
    );
    const answers = await Promise.all(
      wanted.map(async (l) => {
        const r = await this.#bridge.invoke('market.symbol', { symbol: l.symbol, exchange: l.exchange });
        const value: LegInstrument = r.ok
          ? { ok: true, info: r.value }
          : { ok: false, message: r.error.message };
        return [keyOf(l), value] as const;
      }),
    );
    if (answers.length > 0) this.instruments = { ...this.instruments, ...Object.fromEntries(answers) };
  }

  /** Saves the legs under a name (replacing a basket of that name); false with a reason if refused. */
  async save(name: string): Promise<boolean> {
    const n = name.trim();
    if (n === '') return this.#savedRefusal('Name the basket to save it');
    if (n.length > 40) return this.#savedRefusal('A basket name is at most 40 characters');
    if (this.legs.length === 0) return this.#savedRefusal('Nothing to save: the basket has no legs');
    const others = this.saved.filter((b) => b.name !== n);
    if (others.length >= SAVED_BASKET_LIMIT)
      return this.#savedRefusal(`At most ${SAVED_BASKET_LIMIT} saved baskets: delete one first`);
    return this.#write([...others, { name: n, legs: this.legs }], `Saved “${n}” (${this.legs.length} legs)`);
  }

  async deleteSaved(name: string): Promise<boolean> {
    return this.#write(
      this.saved.filter((b) => b.name !== name),
      `Deleted “${name}”`,
    );
  }

  /** Replaces the legs with a saved basket's. */
  load(name: string): boolean {
    const b = this.saved.find((x) => x.name === name);
    if (!b) return this.#savedRefusal(`No saved basket “${name}”`);
    this.legs = b.legs.map((l) => ({ ...l }));
    this.notice = `Loaded “${name}” (${b.legs.length} legs)`;
    void this.refreshQuotes();
    void this.refreshInstruments();
    return true;
  }

  async #write(baskets: SavedBasket[], done: string): Promise<boolean> {
    const r = await this.#bridge.invoke('settings.update', { baskets });
    if (!r.ok) return this.#savedRefusal(`Not saved: ${r.error.message}`);
    this.saved = r.value.baskets;
    this.savedProblem = undefined;
    this.notice = done;
    return true;
  }

  #savedRefusal(message: string): false {
    this.savedProblem = message;
    return false;
  }
}
