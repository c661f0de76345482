// The desk's key presets (NEST, Kite, OpenAlgo scalping) and the one pure function that turns the
// saved choice (settings.hotkeys: preset + overrides) into the key map in use, with every conflict
// in words: two actions on one chord, a chord that would type into a field for an action that must
// work while typing, and keys the browser or the OS keep. The Settings pane shows `conflicts`;
// HotkeysState applies `keymap`.
import type { HotkeyPreset, HotkeySettings } from '@contract';
import { DEFAULT_KEYMAP, type Keymap } from './hotkeys';
import { buildKeymap, type KeymapError } from './keymap-build';

/** Mirrors the settings schema's HOTKEY_PRESETS (renderer code imports contract types only). */
export const HOTKEY_PRESETS: readonly HotkeyPreset[] = ['nest', 'kite', 'scalping'];

export const PRESET_LABELS: Readonly<Record<HotkeyPreset, string>> = {
  nest: 'NEST (function keys)',
  kite: 'Kite (letters)',
  scalping: 'OpenAlgo scalping',
};

const NEST: Keymap = DEFAULT_KEYMAP;

/**
 * Kite web's letters: B/S on a watchlist row, D depth, Shift+letter for the books, `/` search; the
 * ticket's keys are Alt+letters (M market, T type, P product, R repeat) so they act from its fields.
 */
const KITE: Keymap = {
  ...NEST,
  'ticket.buy': ['Shift+B'],
  'ticket.sell': ['Shift+S'],
  'pane.orders': ['Shift+O'],
  'pane.watchlist': ['Shift+W'],
  'pane.depth': ['D'],
  'pane.trades': ['Shift+T'],
  'pane.positions': ['Shift+P'],
  'ticket.market': ['Alt+M'],
  'ticket.nextType': ['Alt+T'],
  'ticket.nextProduct': ['Alt+P'],
  'ticket.repeatLast': ['Alt+R'],
};

/**
 * OpenAlgo's scalping terminal: ↑ buys the at-the-money call and ↓ the put (bullish up, bearish
 * down), Shift+↑/↓ sells them; F6 closes all and F7 cancels all (NEST's F6 depth moves to Shift+F6,
 * its F7 market to Shift+F7).
 * The arrows act only where focus is not on a control that moves with them (rows, radios, tabs).
 */
const SCALPING: Keymap = {
  ...NEST,
  'pane.depth': ['Shift+F6'],
  'positions.closeAll': ['F6', 'Ctrl+Shift+Q'],
  'orders.cancelAll': ['F7', 'Ctrl+Shift+X'],
  'ticket.market': ['Shift+F7'],
  'atm.buyCall': ['ArrowUp'],
  'atm.buyPut': ['ArrowDown'],
  'atm.sellCall': ['Shift+ArrowUp'],
  'atm.sellPut': ['Shift+ArrowDown'],
};

export const PRESET_KEYMAPS: Readonly<Record<HotkeyPreset, Keymap>> = {
  nest: NEST,
  kite: KITE,
  scalping: SCALPING,
};

export type HotkeyConflict = KeymapError;

export interface ResolvedKeymap {
  /** The preset the map starts from (an unknown one falls back to NEST and says so). */
  preset: HotkeyPreset;
  /** The map to use: the preset with the overrides, or the preset alone when any override conflicts. */
  keymap: Keymap;
  /** Whether the overrides are in `keymap` (all of them: a remap applies whole or not at all). */
  applied: boolean;
  /** Every problem, each naming the action and chord, in words; empty when the map is sound. */
  conflicts: HotkeyConflict[];
}

const isPreset = (p: unknown): p is HotkeyPreset => HOTKEY_PRESETS.includes(p as HotkeyPreset);

/**
 * The key map for a preset and overrides (action id → chord list, a chord, or null/[] to unbind).
 * Pure: the Settings pane calls it on a candidate before saving, the desk on what settings hold.
 */
export function resolveKeymap(
  preset: unknown,
  overrides: Readonly<Record<string, unknown>> = {},
): ResolvedKeymap {
  const conflicts: HotkeyConflict[] = [];
  let base: HotkeyPreset = 'nest';
  if (isPreset(preset)) base = preset;
  else
    conflicts.push({
      code: 'bad_binding',
      message: `${String(preset)} is not a key preset (${HOTKEY_PRESETS.join(', ')}): using NEST`,
    });
  const result = buildKeymap(overrides, PRESET_KEYMAPS[base]);
  if (result.ok) return { preset: base, keymap: result.keymap, applied: true, conflicts };
  return {
    preset: base,
    keymap: PRESET_KEYMAPS[base],
    applied: false,
    conflicts: [...conflicts, ...result.errors],
  };
}

/** resolveKeymap for the saved settings shape. */
export const resolveHotkeySettings = (s: HotkeySettings): ResolvedKeymap =>
  resolveKeymap(s.preset, s.overrides);

/** The chords of one action, for labels (`F1`, or `F1 / Shift+F1`); '' when unbound. */
export const chordLabel = (keymap: Keymap, action: keyof Keymap): string => keymap[action].join(' / ');

/** An action's chords as aria-keyshortcuts says them (`Control+Shift+X F7`); undefined when unbound. */
export function ariaKeyshortcuts(keymap: Keymap, action: keyof Keymap): string | undefined {
  const chords = keymap[action].map((c) => c.replace(/^Ctrl\+/, 'Control+'));
  return chords.length > 0 ? chords.join(' ') : undefined;
}

/** The first chord of an action as a short key cap (Enter as ⏎); '' when unbound. */
export const keyCap = (keymap: Keymap, action: keyof Keymap): string =>
  (keymap[action][0] ?? '').replace(/^Enter$/, '⏎').replace(/^Escape$/, 'Esc');
