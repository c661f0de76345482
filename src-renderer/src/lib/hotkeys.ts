// The desk's keys as data (desk-design.md "Keys": NEST function keys and Kite letters side by side),
// and a pure resolver from a key press in a context to an action.
// Typing wins: a plain letter or `/` never leaves a text field; function keys, Esc, Enter and
// Ctrl/Alt/Meta chords still act there (the ticket is driven from its own fields).
// Chords: chords.ts. Remapping: keymap-build.ts. Presets (NEST, Kite, OpenAlgo scalping): keymap-presets.ts.
import { chordOf, isNavigationChord, worksWhileTyping, type KeyPress } from './chords';

export const HOTKEY_ACTIONS = [
  'ticket.buy',
  'ticket.sell',
  'row.buy',
  'row.sell',
  'pane.orders',
  'pane.watchlist',
  'pane.depth',
  'pane.trades',
  'pane.positions',
  'search.open',
  'ticket.send',
  'ticket.cancel',
  'row.modify',
  'row.cancel',
  'orders.cancelAll',
  'positions.closeAll',
  // The ticket's order type and product (remembered per segment), and the last order sent again.
  'ticket.market',
  'ticket.nextType',
  'ticket.nextProduct',
  'ticket.repeatLast',
  // The ticket's entry sent with its segment's default protection (stop and target, issue 25).
  'ticket.sendProtected',
  // One-click (OpenAlgo scalping preset): the at-the-money option of the ticket's underlying, sent at
  // once while one-click is armed (the one-click state implements them; unarmed they only say so).
  'atm.buyCall',
  'atm.sellCall',
  'atm.buyPut',
  'atm.sellPut',
  // A position row's protection (issue 25): edit its stop or target in the row, remove the
  // protection, flatten through the bracket, place a refused leg again.
  'row.editStop',
  'row.editTarget',
  'row.unprotect',
  'row.flatten',
  'row.retryLeg',
] as const;
export type HotkeyAction = (typeof HOTKEY_ACTIONS)[number];

/**
 * Where an action applies: anywhere, on a focused book/watchlist row, or in the ticket (Enter sends
 * only from the ticket: an Enter meant for a confirm dialog or a button must never place an order).
 */
export type HotkeyScope = 'global' | 'row' | 'ticket';

export interface HotkeyDef {
  action: HotkeyAction;
  label: string;
  scope: HotkeyScope;
  /**
   * Must act while focus is in a text field (the ticket's Enter/Esc, the panic keys): a chord that
   * types text can never be bound to it (keymap-presets reports it as a conflict).
   */
  whileTyping: boolean;
}

/** Actions whose key must work from inside a text field. */
const WHILE_TYPING: ReadonlySet<HotkeyAction> = new Set([
  'ticket.send',
  'ticket.cancel',
  'orders.cancelAll',
  'positions.closeAll',
  'ticket.market',
  'ticket.nextType',
  'ticket.nextProduct',
  'ticket.repeatLast',
  'ticket.sendProtected',
]);

export const HOTKEY_DEFS: Readonly<Record<HotkeyAction, HotkeyDef>> = Object.fromEntries(
  (
    [
      ['ticket.buy', 'Buy the focused instrument', 'global'],
      ['ticket.sell', 'Sell the focused instrument', 'global'],
      ['row.buy', 'Buy the focused row', 'row'],
      ['row.sell', 'Sell the focused row', 'row'],
      ['pane.orders', 'Orders', 'global'],
      ['pane.watchlist', 'Watchlist', 'global'],
      ['pane.depth', 'Depth', 'global'],
      ['pane.trades', 'Trades', 'global'],
      ['pane.positions', 'Positions', 'global'],
      ['search.open', 'Instrument search', 'global'],
      ['ticket.send', 'Send the ticket', 'ticket'],
      ['ticket.cancel', 'Close the ticket', 'ticket'],
      ['row.modify', 'Modify the focused order', 'row'],
      ['row.cancel', 'Cancel the focused order', 'row'],
      ['orders.cancelAll', 'Cancel all open orders (asks first)', 'global'],
      ['positions.closeAll', 'Close all positions (asks first)', 'global'],
      ['ticket.market', 'Ticket: order type MARKET', 'ticket'],
      ['ticket.nextType', 'Ticket: next order type (MARKET, LIMIT, SL, SL-M)', 'ticket'],
      ['ticket.nextProduct', 'Ticket: next product (CNC or NRML, MIS)', 'ticket'],
      ['ticket.repeatLast', 'Repeat the last order (asks first)', 'global'],
      ['ticket.sendProtected', "Send the ticket with the segment's default protection", 'ticket'],
      ['atm.buyCall', 'One-click: buy the at-the-money call', 'global'],
      ['atm.sellCall', 'One-click: sell the at-the-money call', 'global'],
      ['atm.buyPut', 'One-click: buy the at-the-money put', 'global'],
      ['atm.sellPut', 'One-click: sell the at-the-money put', 'global'],
      ['row.editStop', 'Edit the focused position’s stop', 'row'],
      ['row.editTarget', 'Edit the focused position’s target', 'row'],
      ['row.unprotect', 'Remove the focused position’s protection', 'row'],
      ['row.flatten', 'Flatten the focused position’s bracket (asks first)', 'row'],
      ['row.retryLeg', 'Place the focused position’s refused leg again', 'row'],
    ] as const
  ).map(([action, label, scope]) => [
    action,
    { action, label, scope, whileTyping: WHILE_TYPING.has(action) },
  ]),
) as Record<HotkeyAction, HotkeyDef>;

/** Chords per action, in canonical form (`Ctrl+Alt+Shift+Meta+Key`). */
export type Keymap = Readonly<Record<HotkeyAction, readonly string[]>>;

/** The NEST preset (function keys, with Kite's row letters): the map until settings say otherwise. */
export const DEFAULT_KEYMAP: Keymap = {
  'ticket.buy': ['F1'],
  'ticket.sell': ['F2'],
  'row.buy': ['B'],
  'row.sell': ['S'],
  'pane.orders': ['F3'],
  'pane.watchlist': ['F4'],
  'pane.depth': ['F6'],
  'pane.trades': ['F8'],
  'pane.positions': ['Alt+F6'],
  'search.open': ['/'],
  'ticket.send': ['Enter'],
  'ticket.cancel': ['Escape'],
  'row.modify': ['M'],
  'row.cancel': ['C'],
  'orders.cancelAll': ['Ctrl+Shift+X'],
  'positions.closeAll': ['Ctrl+Shift+Q'],
  'ticket.market': ['F7'],
  'ticket.nextType': ['F9'],
  'ticket.nextProduct': ['F10'],
  'ticket.repeatLast': ['Shift+F12'],
  'ticket.sendProtected': ['Shift+Enter'],
  'atm.buyCall': [],
  'atm.sellCall': [],
  'atm.buyPut': [],
  'atm.sellPut': [],
  'row.editStop': ['L'],
  'row.editTarget': ['T'],
  'row.unprotect': ['U'],
  'row.flatten': ['F'],
  'row.retryLeg': ['R'],
};

export interface HotkeyContext {
  /** Focus is in a text field (input, textarea, select, contenteditable). */
  typingInInput: boolean;
  /** Focus is on a row of a book or the watchlist. */
  rowFocused: boolean;
  /** Focus is inside the order ticket (Enter sends, Esc closes only there). */
  ticketFocused?: boolean;
  /**
   * Focus is on a control that moves with the arrow keys (a radio group, a row, tabs, a splitter,
   * a select): its own arrows, Home/End and PageUp/PageDown win over a hotkey on them.
   */
  navigating?: boolean;
}

// Reverse indices of the keymaps in use, built once per keymap.
const indices = new WeakMap<Keymap, Map<string, HotkeyAction>>();
function indexOf(keymap: Keymap): Map<string, HotkeyAction> {
  let index = indices.get(keymap);
  if (!index) {
    index = new Map();
    for (const action of HOTKEY_ACTIONS) for (const chord of keymap[action]) index.set(chord, action);
    indices.set(keymap, index);
  }
  return index;
}

/** The action a key press asks for in this context, or null (the key then does what it normally does). */
export function resolveHotkey(
  e: KeyPress,
  ctx: HotkeyContext,
  keymap: Keymap = DEFAULT_KEYMAP,
): HotkeyAction | null {
  // A held key repeats: one press, one command. An IME composing text owns its keys.
  if (e.repeat || e.isComposing) return null;
  const chord = chordOf(e);
  if (!chord) return null;
  const action = indexOf(keymap).get(chord);
  if (!action) return null;
  if (ctx.typingInInput && !worksWhileTyping(chord) && !HOTKEY_DEFS[action].whileTyping) return null;
  if (ctx.navigating && isNavigationChord(chord)) return null;
  const scope = HOTKEY_DEFS[action].scope;
  if (scope === 'row' && !ctx.rowFocused) return null;
  if (scope === 'ticket' && !ctx.ticketFocused) return null;
  return action;
}

/** A book's empty line with the keys that open the ticket: `No orders today · F1 to buy, F2 to sell`. */
export function tradeKeysHint(keymap: Keymap, nothing: string): string {
  const buy = keymap['ticket.buy'][0];
  const sell = keymap['ticket.sell'][0];
  return buy && sell ? `${nothing} · ${buy} to buy, ${sell} to sell` : nothing;
}
