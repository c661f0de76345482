// One-click mode for scalpers: off until the trader arms it (remembered in settings.oneClick, and
// followed from settings.changed); armed, a buy/sell key sends a MARKET order at once with the
// ticket's instrument, quantity and product, or the at-the-money call/put of its underlying. One
// order in flight at a time, a cooldown between orders and per-order lot and value caps; every
// press that sends nothing says why.
import type { Action, BridgeApi, OneClickSettings, PlaceOrderIpcInput, Product } from '@contract';
import { displayName, isOrderExchange } from '../lib/instrument';
import { checkCaps, cooldownLeft, type OneClickTarget } from '../lib/one-click';
import { AtmOptionFinder, atmUnderlyingOf, optionProduct } from './atm-option';

export const ONE_CLICK_DEFAULTS: OneClickSettings = {
  armed: false,
  maxLots: 1,
  maxValue: 200_000,
  cooldownMs: 1000,
};

/** What the ticket offers one-click: read at the moment of the press. */
export interface TicketSnapshot {
  instrument?: { symbol: string; exchange: string };
  /** Shares (units). */
  quantity?: number;
  lotSize: number;
  product: Product;
  /** The instrument's last traded price. */
  lastPrice?: number;
}

export type OneClickNotice =
  | { tone: 'sent'; text: string; orderid?: string }
  | { tone: 'refused'; text: string }
  | { tone: 'info'; text: string };

export interface OneClickOptions {
  now?: () => number;
}

/** A MARKET order names no price, trigger or disclosed quantity. */
const AT_MARKET = { price: 0, trigger_price: 0, disclosed_quantity: 0 } as const;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export class OneClickState {
  settings = $state<OneClickSettings>({ ...ONE_CLICK_DEFAULTS });
  /** Settings read (or failed): the switch shows the remembered state, not the default. */
  loaded = $state(false);
  sending = $state(false);
  lastSentAt = $state<number | undefined>();
  notice = $state<OneClickNotice | undefined>();
  /** Orders this page sent in one-click mode. */
  sent = $state(0);

  readonly armed = $derived(this.settings.armed);

  readonly #bridge: BridgeApi;
  readonly #now: () => number;
  readonly #atm: AtmOptionFinder;
  #settingsSeq = 0;

  constructor(bridge: BridgeApi, options: OneClickOptions = {}) {
    this.#bridge = bridge;
    this.#now = options.now ?? (() => performance.now());
    this.#atm = new AtmOptionFinder(bridge);
  }

  /** Reads settings.oneClick and follows every later change; returns the stop. */
  start(): () => void {
    const off = this.#bridge.on('settings.changed', (e) => {
      if (e.seq <= this.#settingsSeq) return;
      this.#settingsSeq = e.seq;
      this.settings = { ...e.settings.oneClick };
      this.loaded = true;
    });
    void this.#bridge.invoke('settings.get').then((res) => {
      if (this.#settingsSeq > 0) return;
      if (res.ok) this.settings = { ...res.value.oneClick };
      else
        this.notice = { tone: 'refused', text: `One-click settings could not be read: ${res.error.message}` };
      this.loaded = true;
    });
    return off;
  }

  /** Arms or disarms, remembered in settings; the switch shows it at once and goes back on a refusal. */
  async setArmed(armed: boolean): Promise<boolean> {
    const before = this.settings.armed;
    this.settings.armed = armed;
    this.notice = armed
      ? { tone: 'info', text: 'Armed: buy/sell keys send MARKET orders at once, no confirmation' }
      : { tone: 'info', text: 'One-click off: keys open the ticket again' };
    const res = await this.#bridge.invoke('settings.update', { oneClick: { armed } });
    if (res.ok) {
      this.settings = { ...res.value.oneClick };
      return true;
    }
    this.settings.armed = before;
    this.notice = { tone: 'refused', text: `Could not ${armed ? 'arm' : 'disarm'}: ${res.error.message}` };
    return false;
  }

  /** Saves new caps (lots, value, cooldown); a refusal names the field. */
  async setCaps(caps: Partial<Omit<OneClickSettings, 'armed'>>): Promise<boolean> {
    const res = await this.#bridge.invoke('settings.update', { oneClick: caps });
    if (res.ok) {
      this.settings = { ...res.value.oneClick };
      return true;
    }
    this.notice = { tone: 'refused', text: res.error.message };
    return false;
  }

  refuse(text: string): false {
    this.notice = { tone: 'refused', text };
    return false;
  }

  /** A held key's repeats: ignored, and said once per hold. */
  heldKey(): void {
    if (this.notice?.text.startsWith('Held key ignored')) return;
    this.notice = { tone: 'info', text: 'Held key ignored: one press, one order' };
  }

  /**
   * Sends one order for a key press now, or says why not: disarmed, one still in flight, the
   * cooldown, no instrument or quantity, a cap. True when the gateway placed it.
   */
  async press(side: Action, target: OneClickTarget, ticket: TicketSnapshot): Promise<boolean> {
    if (!this.settings.armed) return this.refuse('One-click is off: arm it to send from the keys');
    if (this.sending) return this.refuse('Still sending the last order: this press was not sent');
    const wait = cooldownLeft(this.lastSentAt, this.#now(), this.settings.cooldownMs);
    if (wait > 0) return this.refuse(`Cooldown: not sent, next order in ${seconds(wait)}`);
    // Taken now, before any await: a second press in the same moment sees it.
    this.sending = true;
    try {
      const order = await this.#orderFor(side, target, ticket);
      if (!order.ok) return this.refuse(order.message);
      const caps = checkCaps(
        { quantity: order.request.quantity, lotSize: order.lotSize, price: order.price },
        this.settings,
      );
      if (!caps.ok) return this.refuse(`Not sent: ${caps.message}`);
      this.lastSentAt = this.#now();
      const res = await this.#bridge.invoke('orders.place', order.request);
      const what = `${side} ${order.request.quantity} ${displayName(order.request.symbol)}`;
      if (res.ok) {
        this.sent += 1;
        this.notice = {
          tone: 'sent',
          text: `Sent ${what} at market · order ${res.value.orderid}`,
          orderid: res.value.orderid,
        };
        return true;
      }
      if (res.error.kind === 'unknown_outcome')
        this.notice = {
          tone: 'info',
          text: `${what}: sent, outcome unknown (reconciling from the order book)`,
        };
      else this.refuse(`${what} refused: ${res.error.message}`);
      return false;
    } finally {
      this.sending = false;
    }
  }

  async #orderFor(
    side: Action,
    target: OneClickTarget,
    t: TicketSnapshot,
  ): Promise<
    | { ok: true; request: PlaceOrderIpcInput; lotSize: number; price?: number }
    | { ok: false; message: string }
  > {
    const inst = t.instrument;
    if (!inst) return { ok: false, message: 'Pick an instrument in the ticket first' };
    if (target.kind === 'ticket') {
      if (!isOrderExchange(inst.exchange))
        return {
          ok: false,
          message: `${inst.symbol} on ${inst.exchange} is quoted only: it cannot be traded`,
        };
      if (t.quantity === undefined) return { ok: false, message: 'The ticket has no quantity to send' };
      return {
        ok: true,
        lotSize: t.lotSize,
        ...(t.lastPrice !== undefined ? { price: t.lastPrice } : {}),
        request: {
          symbol: inst.symbol,
          exchange: inst.exchange,
          action: side,
          quantity: t.quantity,
          pricetype: 'MARKET',
          product: t.product,
          ...AT_MARKET,
        },
      };
    }
    const u = atmUnderlyingOf(inst);
    if (!u)
      return { ok: false, message: `${inst.symbol} on ${inst.exchange} has no options for the ATM keys` };
    const found = await this.#atm.find(u, target.optionType);
    if (!found.ok) return found;
    const o = found.option;
    // A derivative ticket's lots carry over; an underlying's ticket trades one lot of the option.
    const ticketIsOption = inst.exchange === u.exchange && t.lotSize > 1 && t.quantity !== undefined;
    const lots = ticketIsOption ? Math.max(1, Math.floor((t.quantity ?? 0) / t.lotSize)) : 1;
    return {
      ok: true,
      lotSize: o.lotSize,
      ...(o.ltp !== undefined ? { price: o.ltp } : {}),
      request: {
        symbol: o.symbol,
        exchange: o.exchange,
        action: side,
        quantity: lots * o.lotSize,
        pricetype: 'MARKET',
        product: optionProduct(t.product, o.exchange),
        ...AT_MARKET,
      },
    };
  }
}
