// One-click mode's rules as pure functions: what a key press means to it (send now, a held key's
// repeat, an at-the-money key while disarmed, or nothing of its business) and whether an order fits
// the per-order caps (lots, value at the last price) and the cooldown. Cancel all and close all are
// the desk's own keys and already act from a text field (HOTKEY_DEFS whileTyping), armed or not.
import type { Action, OneClickSettings } from '@contract';
import { compareDec, decOf, mulDec, parseDecimal, toPlainText, type Dec } from '@shared/decimal.js';
import { formatMoney } from '@shared/format.js';
import type { KeyPress } from './chords';
import { resolveHotkey, type HotkeyAction, type HotkeyContext, type Keymap } from './hotkeys';

/** The order a one-click key sends: the ticket's instrument, or the at-the-money call or put. */
export type OneClickTarget = { kind: 'ticket' } | { kind: 'atm'; optionType: 'CE' | 'PE' };

export type OneClickKey =
  /** Not one-click's: the desk's usual handling applies. */
  | { kind: 'none' }
  /** A send key: armed, it sends now; `repeat` is a held key's auto-repeat (never sent). */
  | { kind: 'send'; side: Action; target: OneClickTarget; repeat: boolean; action: HotkeyAction }
  /** An at-the-money key while disarmed: it does nothing but say so. */
  | { kind: 'disarmed'; action: HotkeyAction };

const SENDS: Partial<Record<HotkeyAction, { side: Action; target: OneClickTarget }>> = {
  'ticket.buy': { side: 'BUY', target: { kind: 'ticket' } },
  'ticket.sell': { side: 'SELL', target: { kind: 'ticket' } },
  'atm.buyCall': { side: 'BUY', target: { kind: 'atm', optionType: 'CE' } },
  'atm.sellCall': { side: 'SELL', target: { kind: 'atm', optionType: 'CE' } },
  'atm.buyPut': { side: 'BUY', target: { kind: 'atm', optionType: 'PE' } },
  'atm.sellPut': { side: 'SELL', target: { kind: 'atm', optionType: 'PE' } },
};

/** What a key press is to one-click mode, armed or not, where focus is. */
export function oneClickKey(
  press: KeyPress,
  ctx: HotkeyContext,
  keymap: Keymap,
  armed: boolean,
): OneClickKey {
  if (press.isComposing) return { kind: 'none' };
  // Resolved as a first press: a repeat must be recognised to be swallowed, not passed on. Copied
  // field by field: a KeyboardEvent's fields are getters a spread would not copy.
  const first: KeyPress = {
    key: press.key,
    ...(press.code !== undefined ? { code: press.code } : {}),
    ctrlKey: press.ctrlKey === true,
    altKey: press.altKey === true,
    shiftKey: press.shiftKey === true,
    metaKey: press.metaKey === true,
    repeat: false,
  };
  const action = resolveHotkey(first, ctx, keymap);
  const send = action ? SENDS[action] : undefined;
  if (action && send) {
    if (armed) return { kind: 'send', ...send, repeat: press.repeat === true, action };
    return action.startsWith('atm.') ? { kind: 'disarmed', action } : { kind: 'none' };
  }
  return { kind: 'none' };
}

export interface OneClickOrder {
  /** Shares (units): lots × lot size. */
  quantity: number;
  lotSize: number;
  /** The price the value is reckoned at (the last traded price), as text or number; none: unknown. */
  price?: number | string;
}

export type CapCheck =
  | { ok: true; lots: number; value: Dec }
  | { ok: false; reason: 'quantity' | 'lots' | 'no_price' | 'value'; message: string };

const lotsText = (n: number) => (n === 1 ? '1 lot' : `${n} lots`);

/** The per-order caps: at most maxLots lots and maxValue rupees at the last price. */
export function checkCaps(
  order: OneClickOrder,
  caps: Pick<OneClickSettings, 'maxLots' | 'maxValue'>,
): CapCheck {
  const lot = order.lotSize > 0 ? order.lotSize : 1;
  if (!Number.isInteger(order.quantity) || order.quantity <= 0)
    return { ok: false, reason: 'quantity', message: 'The ticket has no quantity to send' };
  if (order.quantity % lot !== 0)
    return {
      ok: false,
      reason: 'quantity',
      message: `${order.quantity} is not a whole number of lots of ${lot}`,
    };
  const lots = order.quantity / lot;
  if (lots > caps.maxLots)
    return {
      ok: false,
      reason: 'lots',
      message: `${lotsText(lots)} is over the one-click cap of ${lotsText(caps.maxLots)}`,
    };
  const price = order.price === undefined ? undefined : parseDecimal(order.price);
  if (!price || compareDec(price, decOf(0)) <= 0)
    return { ok: false, reason: 'no_price', message: 'No last price yet: the value cap cannot be checked' };
  const value = mulDec(price, decOf(order.quantity));
  const cap = parseDecimal(caps.maxValue);
  if (cap && compareDec(value, cap) > 0)
    return {
      ok: false,
      reason: 'value',
      message: `Value ${formatMoney(toPlainText(value))} is over the one-click cap of ${formatMoney(caps.maxValue)}`,
    };
  return { ok: true, lots, value };
}

/** Milliseconds of cooldown left after an order sent at `lastSentAt`; 0 when a new one may go. */
export function cooldownLeft(lastSentAt: number | undefined, now: number, cooldownMs: number): number {
  if (lastSentAt === undefined) return 0;
  return Math.max(0, lastSentAt + cooldownMs - now);
}
