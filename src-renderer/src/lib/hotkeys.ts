// The desk's keys as data (desk-design.md "Keys": NEST function keys and Kite letters side by side),
// a pure resolver from a key press in a context to an action, and remapping with validation.
// Typing wins: a plain letter or `/` never leaves a text field; function keys, Esc, Enter and
// Ctrl/Alt/Meta chords still act there (the ticket is driven from its own fields).
// Presets (NEST, Kite, OpenAlgo scalping), the trader's overrides and conflict checks: keymap-presets.ts.

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
  // One-click (OpenAlgo scalping preset): the at-the-money option of the ticket's underlying, sent at
  // once while one-click is armed (the one-click state implements them; unarmed they only say so).
  'atm.buyCall',
  'atm.sellCall',
  'atm.buyPut',
  'atm.sellPut',
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
      ['atm.buyCall', 'One-click: buy the at-the-money call', 'global'],
      ['atm.sellCall', 'One-click: sell the at-the-money call', 'global'],
      ['atm.buyPut', 'One-click: buy the at-the-money put', 'global'],
      ['atm.sellPut', 'One-click: sell the at-the-money put', 'global'],
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
  'atm.buyCall': [],
  'atm.sellCall': [],
  'atm.buyPut': [],
  'atm.sellPut': [],
};

// ---- chords ----
const MODIFIERS = ['Ctrl', 'Alt', 'Shift', 'Meta'] as const;
type Modifier = (typeof MODIFIERS)[number];
const MODIFIER_NAMES = new Map<string, Modifier>([
  ['ctrl', 'Ctrl'],
  ['control', 'Ctrl'],
  ['alt', 'Alt'],
  ['option', 'Alt'],
  ['shift', 'Shift'],
  ['meta', 'Meta'],
  ['cmd', 'Meta'],
  ['command', 'Meta'],
]);
const NAMED_KEYS = new Set([
  'Enter',
  'Escape',
  'Tab',
  'Space',
  'Backspace',
  'Delete',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
]);
const ALIASES = new Map([
  ['ESC', 'Escape'],
  ['RETURN', 'Enter'],
  [' ', 'Space'],
  ['SPACEBAR', 'Space'],
]);
const FUNCTION_KEY = /^F([1-9]|1\d|2[0-4])$/;

function canonicalKey(key: string): string | undefined {
  const alias = ALIASES.get(key.toUpperCase());
  if (alias) return alias;
  if (key.length === 1) return key.toUpperCase();
  const f = /^f(\d{1,2})$/i.exec(key);
  if (f && FUNCTION_KEY.test(`F${f[1]}`)) return `F${f[1]}`;
  for (const named of NAMED_KEYS) if (named.toLowerCase() === key.toLowerCase()) return named;
  return undefined;
}

function join(mods: ReadonlySet<Modifier>, key: string): string {
  return [...MODIFIERS.filter((m) => mods.has(m)), key].join('+');
}

const isLetter = (key: string): boolean => /^[A-Z]$/.test(key);

export type ChordParse = { ok: true; chord: string } | { ok: false; message: string };

/** `ctrl+shift+x` → `Ctrl+Shift+X`; refuses what no key press could produce or tell apart. */
export function parseChord(text: string): ChordParse {
  const t = text.trim();
  // `+` itself is a key: `Ctrl++` is Ctrl and plus.
  const parts = t.endsWith('++') ? [...t.slice(0, -2).split('+'), '+'] : t === '+' ? ['+'] : t.split('+');
  const keyPart = parts.pop() ?? '';
  const mods = new Set<Modifier>();
  for (const p of parts) {
    const m = MODIFIER_NAMES.get(p.trim().toLowerCase());
    if (!m)
      return {
        ok: false,
        message: `"${text}": ${p.trim() || 'an empty part'} is not a modifier (Ctrl, Alt, Shift, Meta)`,
      };
    if (mods.has(m)) return { ok: false, message: `"${text}" names ${m} twice` };
    mods.add(m);
  }
  const key = canonicalKey(keyPart.trim());
  if (!key) return { ok: false, message: `"${text}": ${keyPart.trim() || 'no key'} is not a key` };
  // Shift with a symbol is how the symbol is typed on some layouts: the press reads as the symbol alone.
  if (mods.has('Shift') && key.length === 1 && !isLetter(key))
    return { ok: false, message: `"${text}": Shift with ${key} cannot be told apart from ${key}` };
  return { ok: true, chord: join(mods, key) };
}

/** The part of a KeyboardEvent the resolver reads (so tests and callers need no DOM). */
export interface KeyPress {
  key: string;
  code?: string;
  ctrlKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  metaKey?: boolean;
  repeat?: boolean;
  isComposing?: boolean;
}

/** The canonical chord of a key press; null for a lone modifier or a key with no name. */
export function chordOf(e: KeyPress): string | null {
  if (['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'Dead', 'Unidentified', 'Process'].includes(e.key))
    return null;
  const mods = new Set<Modifier>();
  if (e.ctrlKey) mods.add('Ctrl');
  if (e.altKey) mods.add('Alt');
  if (e.metaKey) mods.add('Meta');
  let key: string | undefined;
  // With Ctrl/Alt/Meta held, `key` depends on the layout (macOS Alt+M is µ): the physical key decides.
  const physical = /^(?:Key([A-Z])|Digit(\d))$/.exec(e.code ?? '');
  if (mods.size > 0 && physical) key = physical[1] ?? physical[2];
  else key = canonicalKey(e.key);
  if (!key) return null;
  if (e.shiftKey && !(key.length === 1 && !isLetter(key))) mods.add('Shift');
  return join(mods, key);
}

/** Keys that act even while typing in a field: function keys, Esc, Enter, and Ctrl/Alt/Meta chords. */
export function worksWhileTyping(chord: string): boolean {
  const parts = chord.split('+');
  const key = chord.endsWith('++') ? '+' : (parts[parts.length - 1] ?? '');
  if (FUNCTION_KEY.test(key) || key === 'Escape' || key === 'Enter') return true;
  return parts.slice(0, -1).some((m) => m === 'Ctrl' || m === 'Alt' || m === 'Meta');
}

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

const NAVIGATION_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

/** A chord that moves within a focused control: a navigation key, alone or with Shift (selection). */
export function isNavigationChord(chord: string): boolean {
  const parts = chord.split('+');
  const key = parts[parts.length - 1] ?? '';
  return NAVIGATION_KEYS.has(key) && parts.slice(0, -1).every((m) => m === 'Shift');
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

// ---- remapping ----
export type KeymapErrorCode =
  'unknown_action' | 'bad_binding' | 'bad_chord' | 'duplicate' | 'reserved' | 'types_text';
export interface KeymapError {
  code: KeymapErrorCode;
  message: string;
  action?: string;
  chord?: string;
}
export type KeymapResult = { ok: true; keymap: Keymap } | { ok: false; errors: KeymapError[] };

const MAX_CHORDS_PER_ACTION = 4;

/** Chords the browser, Electron or the OS keep (some never reach the page), and why. */
const RESERVED = new Map<string, string>([
  ['F5', 'reloads the window'],
  ['Ctrl+R', 'reloads the window'],
  ['Ctrl+Shift+R', 'reloads the window'],
  ['F11', 'switches full screen'],
  ['F12', 'opens the developer tools'],
  ['Ctrl+Shift+I', 'opens the developer tools'],
  ['Ctrl+Shift+J', 'opens the developer tools'],
  ['Ctrl+W', 'closes the window'],
  ['Ctrl+Shift+W', 'closes the window'],
  ['Ctrl+Q', 'quits'],
  ['Ctrl+T', "is the browser's new tab"],
  ['Ctrl+Shift+T', "is the browser's reopen tab"],
  ['Ctrl+N', "is the browser's new window"],
  ['Ctrl+Shift+N', "is the browser's new window"],
  ['Ctrl+L', "is the browser's address bar"],
  ['Ctrl+P', 'prints'],
  ['Ctrl+Tab', 'switches tabs'],
  ['Ctrl+Shift+Tab', 'switches tabs'],
  ['Alt+F4', 'closes the window'],
  ['Alt+Tab', 'switches windows'],
  ['Alt+ArrowLeft', 'goes back a page'],
  ['Alt+ArrowRight', 'goes forward a page'],
  ['Ctrl+C', 'copies'],
  ['Ctrl+V', 'pastes'],
  ['Ctrl+X', 'cuts'],
  ['Ctrl+A', 'selects all'],
  ['Ctrl+Z', 'undoes typing'],
  ['Ctrl+Y', 'redoes typing'],
  ['Ctrl+Shift+Z', 'redoes typing'],
  ['Meta+Q', 'quits (macOS)'],
  ['Meta+W', 'closes the window (macOS)'],
  ['Meta+C', 'copies (macOS)'],
  ['Meta+V', 'pastes (macOS)'],
  ['Meta+X', 'cuts (macOS)'],
  ['Meta+A', 'selects all (macOS)'],
  ['Meta+Z', 'undoes typing (macOS)'],
  ['Tab', 'moves focus'],
  ['Shift+Tab', 'moves focus'],
  ['Space', 'presses the focused button'],
]);

/** Why `chord` cannot be bound to `action`, or undefined when it can. */
function reservedFor(chord: string, action: HotkeyAction): string | undefined {
  // Enter presses the focused button and Esc closes dialogs and menus: only the ticket may take them.
  if (chord === 'Enter' && action !== 'ticket.send') return 'presses the focused button';
  if (chord === 'Escape' && action !== 'ticket.cancel') return 'closes dialogs and menus';
  return RESERVED.get(chord);
}
const isAction = (a: string): a is HotkeyAction => (HOTKEY_ACTIONS as readonly string[]).includes(a);

/**
 * The default map with `overrides` applied (action → chord, chords, or null to unbind), checked
 * whole: unknown actions, unparseable chords and a chord bound to two actions are refused, each
 * with a reason, and nothing is applied.
 */
export function buildKeymap(
  overrides: Readonly<Record<string, unknown>>,
  base: Keymap = DEFAULT_KEYMAP,
): KeymapResult {
  const errors: KeymapError[] = [];
  const map: Record<HotkeyAction, readonly string[]> = { ...base };
  for (const [action, value] of Object.entries(overrides)) {
    if (!isAction(action)) {
      errors.push({ code: 'unknown_action', action, message: `${action} is not a desk action` });
      continue;
    }
    const list = value === null ? [] : typeof value === 'string' ? [value] : value;
    if (
      !Array.isArray(list) ||
      list.length > MAX_CHORDS_PER_ACTION ||
      !list.every((c): c is string => typeof c === 'string')
    ) {
      errors.push({
        code: 'bad_binding',
        action,
        message: `${action}: give a key, a list of at most ${MAX_CHORDS_PER_ACTION} keys, or null to unbind`,
      });
      continue;
    }
    const chords: string[] = [];
    for (const text of list) {
      const parsed = parseChord(text);
      if (parsed.ok) chords.push(parsed.chord);
      else errors.push({ code: 'bad_chord', action, chord: text, message: `${action}: ${parsed.message}` });
    }
    map[action] = [...new Set(chords)];
  }
  const owner = new Map<string, HotkeyAction>();
  for (const action of HOTKEY_ACTIONS)
    for (const chord of map[action]) {
      const reserved = reservedFor(chord, action);
      if (reserved) {
        errors.push({
          code: 'reserved',
          action,
          chord,
          message: `${chord} ${reserved}: choose another key for ${HOTKEY_DEFS[action].label}`,
        });
        continue;
      }
      if (HOTKEY_DEFS[action].whileTyping && !worksWhileTyping(chord)) {
        errors.push({
          code: 'types_text',
          action,
          chord,
          message: `${chord} types in text fields, and ${HOTKEY_DEFS[action].label} must work while typing: use a function key or a Ctrl/Alt chord`,
        });
        continue;
      }
      const other = owner.get(chord);
      if (other)
        errors.push({
          code: 'duplicate',
          action,
          chord,
          message: `${chord} is bound to both ${HOTKEY_DEFS[other].label} and ${HOTKEY_DEFS[action].label}`,
        });
      else owner.set(chord, action);
    }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, keymap: map };
}
