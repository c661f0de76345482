// The order ticket: the draft as typed, the instrument it is for (market.symbol), the risk limits
// (settings.get), what is wrong with it in words, its value and margin estimate, and sending it once
// (through the send-once guard the ticket's modes use too).
// The rules themselves are pure (lib/ticket-rules); this class holds state and talks to the bridge.
// Over 300 lines: the draft, its instrument, limits, estimate and send are one state every pane loads.
import type {
  Action,
  BridgeApi,
  IpcResult,
  OrderIdResponse,
  PlaceOrderIpcInput,
  PriceType,
  Product,
  RiskLimits,
} from '@contract';
import { untrack } from 'svelte';
import { priceInputText } from '@shared/format.js';
import { limitsForInstrument } from '../lib/symbol-limits';
import { displayName, productsFor } from '../lib/instrument';
import { MarginAsker } from './margin-ask.svelte';
import { SendOnce, type IgnoredReason, type SendFailure } from './send-once.svelte';
import { TicketPrefs } from './ticket-prefs.svelte';
import { TicketProtection } from './ticket-protection.svelte';
import {
  buildPlaceRequest,
  convertQuantity,
  estimateOrder,
  fieldsFor,
  lotOf,
  sharesOf,
  stepPrice,
  stepQuantity,
  validateTicket,
  type QuantityUnit,
  type TicketContext,
  type TicketDraft,
  type TicketInstrument,
  type TicketIssue,
  type TicketLimits,
} from '../lib/ticket-rules';

/**
 * What became of the last order the ticket sent: placed; or sent with the answer lost ("unknown": the
 * core reconciles it from the order book, never sent again from here); or held for approval by a
 * semi-auto gateway ("queued", not placed yet and not to be sent twice); or refused before or by the
 * gateway (risk, duplicate guard, gateway error: nothing was placed).
 */
export type TicketOutcome = { kind: 'placed'; orderid: string } | SendFailure;

export type SubmitResult =
  | { kind: 'sent'; outcome: TicketOutcome }
  | { kind: 'invalid'; issues: TicketIssue[] }
  | { kind: 'ignored'; reason: IgnoredReason };

export interface TicketOpenTarget {
  symbol: string;
  exchange: string;
}

export interface TicketPreset {
  /** The last price the opener knows (the row's LTP): the LIMIT price starts there. */
  lastPrice?: number;
}

export interface TicketOptions {
  /** Sent as the order's strategy; the core uses the profile's when absent. */
  strategy?: string;
}

export type TicketFieldName = 'quantity' | 'price' | 'trigger';

export class TicketState {
  side = $state<Action>('BUY');
  quantityText = $state('');
  quantityUnit = $state<QuantityUnit>('shares');
  product = $state<Product>('MIS');
  priceType = $state<PriceType>('LIMIT');
  priceText = $state('');
  triggerText = $state('');
  disclosedText = $state('');

  instrument = $state<TicketInstrument | undefined>();
  /** Why the instrument could not be had (market.symbol's refusal). */
  instrumentError = $state<string | undefined>();
  loading = $state(false);
  /** open() is under way (instrument, limits, saved defaults): its own choices are not the trader's. */
  opening = $state(false);
  lastPrice = $state<number | undefined>();
  limits = $state<(TicketLimits & Partial<Pick<RiskLimits, 'symbolOverrides'>>) | undefined>();
  /** Why the risk limits could not be read (the core still applies them on send). */
  limitsError = $state<string | undefined>();

  outcome = $state<TicketOutcome | undefined>();
  /** Why the last action that changed nothing did not (a refused unit switch, an unknown tick). */
  notice = $state<string | undefined>();

  /** The last order the gateway placed from this ticket (what the repeat-last key sends again). */
  lastPlaced = $state.raw<{ request: PlaceOrderIpcInput; name: string; tickSize?: number } | undefined>();

  /**
   * One send per press: a draft in flight, or sent with its outcome unknown or queued, does not go
   * again; one the gateway answered goes again on a later, distinct press; a draft the duplicate guard
   * held back may go once, deliberately.
   */
  readonly #once = new SendOnce({ resendAnswered: true });
  #loadSeq = 0;
  readonly #bridge: BridgeApi;
  readonly #options: TicketOptions;

  readonly draft: TicketDraft = $derived({
    side: this.side,
    quantityText: this.quantityText,
    quantityUnit: this.quantityUnit,
    product: this.product,
    priceType: this.priceType,
    priceText: this.priceText,
    triggerText: this.triggerText,
    disclosedText: this.disclosedText,
  });
  readonly context: TicketContext = $derived({
    instrument: this.instrument,
    // The instrument's own per-symbol limits where it has them.
    limits: limitsForInstrument(this.limits, this.instrument),
    lastPrice: this.lastPrice,
  });
  /** Which of price, trigger and disclosed quantity the price type uses (show only those). */
  readonly fields = $derived(fieldsFor(this.priceType, this.instrument?.exchange ?? ''));
  readonly products = $derived(productsFor(this.instrument?.exchange ?? ''));
  readonly lotSize = $derived(lotOf(this.instrument));
  readonly shares = $derived(sharesOf(this.draft, this.lotSize));
  readonly issues = $derived(validateTicket(this.draft, this.context));
  readonly estimate = $derived(estimateOrder(this.draft, this.context));
  // A closure: #options is set in the constructor, after the field initialisers run.
  readonly request = $derived.by(() => buildPlaceRequest(this.draft, this.context, this.#options.strategy));
  readonly #key = $derived(this.request ? JSON.stringify(this.request) : undefined);
  /** The draft was sent as it stands with no answer yet (unknown, queued): ignored until it changes. */
  readonly sent = $derived(this.#once.isSent(this.#key));
  /** The draft is the one sent last, whatever became of it (an ignored press is said against it). */
  readonly sameAsLast = $derived(this.#once.isLast(this.#key));
  readonly refusal = $derived(this.outcome?.kind === 'refused' ? this.outcome.error.message : undefined);
  /**
   * The duplicate guard (or the hold on an order whose twin is in doubt) held back exactly this draft:
   * it may be sent deliberately.
   */
  readonly canConfirmDuplicate = $derived(this.#once.canConfirmDuplicate(this.#key));
  readonly name = $derived(this.instrument ? displayName(this.instrument.symbol) : '');
  /** The gateway's margin for the order (`orders.margin`), asked after a pause in typing. */
  readonly margin: MarginAsker;
  /** The order type and product each segment's new symbols load with (settings.ticketDefaults). */
  readonly prefs: TicketPrefs;
  /** The stop and target attached to the regular ticket's entries (issue 25), and its templates. */
  readonly protection: TicketProtection;

  constructor(bridge: BridgeApi, options: TicketOptions = {}) {
    this.#bridge = bridge;
    this.#options = options;
    this.margin = new MarginAsker(bridge);
    this.prefs = new TicketPrefs(bridge);
    this.protection = new TicketProtection(bridge);
  }

  /** Keeps the order type and product the trader chose for the segment (run in an effect). */
  rememberChoice(): void {
    const inst = this.instrument;
    const choice = { priceType: this.priceType, product: this.product };
    if (inst && !this.opening) untrack(() => void this.prefs.remember(inst.exchange, choice));
  }

  /** A press now is the same hurried one as the send just answered (within the confirm arm window). */
  isSamePress(): boolean {
    return this.#once.isSamePress(this.#key);
  }

  /** A fresh ticket for an instrument: loads its lot, tick and freeze, and the limits once. */
  async open(side: Action, target: TicketOpenTarget, preset: TicketPreset = {}): Promise<void> {
    const seq = ++this.#loadSeq;
    this.opening = true;
    try {
      await this.#open(seq, side, target, preset);
    } finally {
      if (seq === this.#loadSeq) this.opening = false;
    }
  }

  async #open(seq: number, side: Action, target: TicketOpenTarget, preset: TicketPreset): Promise<void> {
    this.side = side;
    this.quantityText = '';
    this.quantityUnit = 'shares';
    this.priceText = '';
    this.triggerText = '';
    this.disclosedText = '';
    const start = this.prefs.defaultsFor(target.exchange);
    this.priceType = start.priceType;
    this.product = start.product;
    this.outcome = undefined;
    this.protection.loadFor(target.exchange);
    this.#once.reset();
    this.notice = undefined;
    this.instrumentError = undefined;
    const same = this.instrument?.symbol === target.symbol && this.instrument.exchange === target.exchange;
    if (!same) this.instrument = undefined;
    // The same instrument keeps the last price its market events brought, unless the opener knows one.
    this.lastPrice = preset.lastPrice ?? (same ? this.lastPrice : undefined);

    const limits = this.limits ? Promise.resolve() : this.loadLimits();
    if (!same) {
      this.loading = true;
      const res = await this.#bridge.invoke('market.symbol', {
        symbol: target.symbol,
        exchange: target.exchange,
      });
      // A later open() won the race: its instrument, not this stale answer, is the ticket's.
      if (seq !== this.#loadSeq) return;
      this.loading = false;
      if (!res.ok) {
        this.instrumentError = res.error.message;
        await limits;
        return;
      }
      this.instrument = res.value;
    }
    const inst = this.instrument;
    // Defaults only where the trader has not typed yet: one lot, and the last price on the tick.
    if (inst && this.quantityText === '') this.quantityText = String(lotOf(inst));
    if (inst && this.priceText === '' && this.lastPrice !== undefined)
      this.priceText = priceInputText(this.lastPrice, inst.tickSize);
    await limits;
    // Settings read meanwhile: the segment's saved defaults, unless the trader already chose.
    const later = this.prefs.defaultsFor(target.exchange);
    if (seq === this.#loadSeq && this.priceType === start.priceType && this.product === start.product) {
      this.priceType = later.priceType;
      this.product = later.product;
    }
  }

  /** Reads the risk limits (settings.get); on failure says why and leaves them to the core. */
  async loadLimits(): Promise<void> {
    const res = await this.#bridge.invoke('settings.get');
    if (res.ok) {
      this.limits = res.value.risk;
      this.prefs.apply(res.value.ticketDefaults);
      this.protection.apply(res.value.protection);
      this.limitsError = undefined;
    } else {
      this.limitsError = `Risk limits could not be read (${res.error.message}); they are still checked on send`;
    }
  }

  /** Follows the instrument's last price from the market events the desk's watches produce. */
  listen(): () => void {
    const apply = (e: { symbol: string; exchange: string; ltp: number }) => {
      const inst = this.instrument;
      if (inst && e.symbol === inst.symbol && e.exchange === inst.exchange) this.lastPrice = e.ltp;
    };
    let settingsSeq = 0;
    const offs = [
      this.#bridge.on('market.ltp', apply),
      this.#bridge.on('market.quote', apply),
      this.#bridge.on('market.depth', apply),
      // A limit changed in Settings applies to the next order the ticket judges (newest change only).
      this.#bridge.on('settings.changed', (e) => {
        if (e.seq <= settingsSeq) return;
        settingsSeq = e.seq;
        this.limits = e.settings.risk;
        this.prefs.apply(e.settings.ticketDefaults);
        this.protection.apply(e.settings.protection);
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  /** Shares ⇄ lots, converting the typed quantity; refused (with a notice) when it would change it. */
  setUnit(unit: QuantityUnit): boolean {
    const c = convertQuantity(this.quantityText, this.quantityUnit, unit, this.lotSize);
    if (!c.ok) {
      this.notice = c.message;
      return false;
    }
    this.notice = undefined;
    this.quantityText = c.text;
    this.quantityUnit = unit;
    return true;
  }

  /** One tick (price, trigger) or one lot (quantity) up or down, as ArrowUp/ArrowDown do. */
  step(field: TicketFieldName, direction: 1 | -1): boolean {
    if (field === 'quantity') {
      this.quantityText = stepQuantity(this.quantityText, this.quantityUnit, this.lotSize, direction);
      return true;
    }
    const text = field === 'price' ? this.priceText : this.triggerText;
    const next = stepPrice(text, this.instrument?.tickSize, direction, this.lastPrice);
    if (next === undefined) {
      this.notice = 'The tick size is not known yet: the price cannot be stepped';
      return false;
    }
    this.notice = undefined;
    if (field === 'price') this.priceText = next;
    else this.triggerText = next;
    return true;
  }

  /** ArrowUp/ArrowDown in a field steps it; true when the key was used (the caller prevents default). */
  stepKey(field: TicketFieldName, key: string): boolean {
    if (key === 'ArrowUp') return this.step(field, 1);
    if (key === 'ArrowDown') return this.step(field, -1);
    return false;
  }

  get sending(): boolean {
    return this.#once.sending;
  }

  /** Submits ignored by the send-once guard (a double Enter or double click), for the record. */
  get ignoredSubmits(): number {
    return this.#once.ignored;
  }

  get lastIgnored(): IgnoredReason | undefined {
    return this.#once.lastIgnored;
  }

  /**
   * Sends the draft once. A submit while one is in flight, or of a draft already sent unchanged, is
   * ignored and counted: a double Enter or double click never sends twice.
   */
  async submit(): Promise<SubmitResult> {
    if (!this.sending && !this.request) return { kind: 'invalid', issues: this.issues };
    return this.#send(false);
  }

  /** Sends again a draft the duplicate guard held back, deliberately (`confirmDuplicate`). */
  confirmDuplicate(): Promise<SubmitResult> {
    return this.#send(true);
  }

  async #send(confirmDuplicate: boolean): Promise<SubmitResult> {
    const request = this.request;
    // A protection that does not parse never lets the entry go unprotected: its words stand by the send.
    const protectionProblem = this.protection.blocking;
    if (protectionProblem && !this.sending) {
      this.protection.hint = protectionProblem;
      return { kind: 'invalid', issues: this.issues };
    }
    // What the repeat key will say of it, taken now: the ticket may show another symbol by the answer.
    const sent = request && { request, name: this.name, tickSize: this.instrument?.tickSize };
    // The protection as it stands at the press, attached once the entry's answer names its order.
    const armed = request ? this.protection.arm() : undefined;
    const outcome = await this.#once.send(this.#key, confirmDuplicate, {
      // With no request there is no key: the guard ignores the press and never calls.
      call: async () =>
        request
          ? this.#bridge
              .invoke('orders.place', confirmDuplicate ? { ...request, confirmDuplicate: true } : request)
              .catch(thrown)
          : thrown('no order to send'),
      sent: (value): TicketOutcome => ({ kind: 'placed', orderid: value.orderid }),
      onStart: () => {
        if (armed) this.protection.starting();
      },
      settle: (o) => {
        this.outcome = o;
        if (o.kind === 'placed' && sent) this.lastPlaced = sent;
      },
    });
    if (outcome && armed && request) await this.protection.attach(request, outcome, armed, sent?.tickSize);
    return outcome
      ? { kind: 'sent', outcome }
      : { kind: 'ignored', reason: this.#once.lastIgnored ?? 'in_flight' };
  }
}

/**
 * The bridge promises never to reject; if one does, whether the order left is unknown, so it is
 * treated as sent (the book will show it) rather than offered again.
 */
function thrown(e: unknown): IpcResult<OrderIdResponse> {
  const why = e instanceof Error ? e.message : typeof e === 'string' ? e : 'no reason given';
  return { ok: false, error: { kind: 'unknown_outcome', message: `The order's outcome is unknown: ${why}` } };
}
