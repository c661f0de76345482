// Remapping: the default map with the trader's overrides applied, checked whole (unknown actions,
// chords that cannot be parsed, keys the browser or the OS keep, a chord on two actions).
import { parseChord, worksWhileTyping } from './chords';
import { DEFAULT_KEYMAP, HOTKEY_ACTIONS, HOTKEY_DEFS, type HotkeyAction, type Keymap } from './hotkeys';

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
