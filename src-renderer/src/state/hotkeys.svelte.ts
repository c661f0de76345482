// The desk's live key map and its one keydown listener: works out the context from where focus is
// (a text field, a row marked `data-hotkey-row`, the ticket marked `data-hotkey-ticket`), resolves
// the press with lib/hotkeys and hands the action to the desk, taking the key from the page. ONE map for
// the whole window: App sets it in context (setHotkeys) and the ticket resolves its keys through it,
// so a remap (settings.hotkeys: preset + overrides) moves every key at once.
import type { BridgeApi, HotkeyPreset, HotkeySettings } from '@contract';
import type { KeyPress } from '../lib/chords';
import {
  DEFAULT_KEYMAP,
  resolveHotkey,
  type HotkeyAction,
  type HotkeyContext,
  type Keymap,
} from '../lib/hotkeys';
import { buildKeymap, type KeymapError } from '../lib/keymap-build';
import { resolveHotkeySettings, type HotkeyConflict } from '../lib/keymap-presets';

export const ROW_ATTRIBUTE = 'data-hotkey-row';
export const TICKET_ATTRIBUTE = 'data-hotkey-ticket';

/** Input types that take no typing: keys on them are the desk's. */
const NOT_TYPED = new Set([
  'button',
  'checkbox',
  'radio',
  'range',
  'color',
  'file',
  'submit',
  'reset',
  'image',
]);

/** Controls whose arrow keys move within them (their arrows win over a hotkey on an arrow). */
const NAVIGABLE = [
  'select',
  'input[type="radio"]',
  'input[type="range"]',
  '[role="tab"]',
  '[role="tablist"]',
  '[role="radio"]',
  '[role="radiogroup"]',
  '[role="listbox"]',
  '[role="option"]',
  '[role="grid"]',
  '[role="slider"]',
  '[role="separator"]',
  '[role="menu"]',
  '[role="menuitem"]',
  '[role="combobox"]',
].join(',');

function editable(el: Element): boolean {
  if (el instanceof HTMLElement && el.isContentEditable) return true;
  // Not every DOM has isContentEditable (jsdom): the nearest contenteditable attribute decides.
  const host = el.closest('[contenteditable]');
  return host !== null && host.getAttribute('contenteditable') !== 'false';
}

/** Where focus is, as the resolver needs it. */
export function contextOf(target: EventTarget | null): HotkeyContext {
  if (!(target instanceof Element))
    return { typingInInput: false, rowFocused: false, ticketFocused: false, navigating: false };
  const typing =
    (target instanceof HTMLInputElement && !NOT_TYPED.has(target.type)) ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    editable(target);
  const rowFocused = target.closest(`[${ROW_ATTRIBUTE}]`) !== null;
  return {
    typingInInput: typing,
    rowFocused,
    ticketFocused: target.closest(`[${TICKET_ATTRIBUTE}]`) !== null,
    navigating: typing || rowFocused || target.closest(NAVIGABLE) !== null,
  };
}

const keyPressOf = (e: KeyboardEvent): KeyPress => ({
  key: e.key,
  code: e.code,
  ctrlKey: e.ctrlKey,
  altKey: e.altKey,
  shiftKey: e.shiftKey,
  metaKey: e.metaKey,
  repeat: e.repeat,
  isComposing: e.isComposing,
});

export type HotkeyHandler = (action: HotkeyAction, event: KeyboardEvent) => void;

export class HotkeysState {
  keymap = $state.raw<Keymap>(DEFAULT_KEYMAP);
  /** Why the last remap was refused (nothing of it applied). */
  errors = $state<KeymapError[]>([]);
  /** The preset in use (settings.hotkeys.preset). */
  preset = $state<HotkeyPreset>('nest');
  /**
   * Why the saved overrides are not in use (they conflict: the preset alone applies), or why the
   * settings could not be read; empty when the saved keys are the keys in use.
   */
  conflicts = $state.raw<HotkeyConflict[]>([]);
  problem = $state<string | undefined>();

  #settingsSeq = 0;

  /** Uses the saved keys: the preset with its overrides, or the preset alone when they conflict. */
  apply(saved: HotkeySettings): void {
    const r = resolveHotkeySettings(saved);
    this.preset = r.preset;
    this.keymap = r.keymap;
    this.conflicts = r.conflicts;
    this.errors = [];
  }

  /**
   * Reads settings.hotkeys and follows settings.changed (a remap saved in Settings, or in another
   * window, applies at once). Returns the stop.
   */
  start(bridge: BridgeApi): () => void {
    const off = bridge.on('settings.changed', (e) => {
      // Only newer news: an older change landing late must not put the older keys back.
      if (e.seq <= this.#settingsSeq) return;
      this.#settingsSeq = e.seq;
      this.apply(e.settings.hotkeys);
      this.problem = undefined;
    });
    void bridge.invoke('settings.get').then((res) => {
      if (res.ok) {
        if (this.#settingsSeq === 0) this.apply(res.value.hotkeys);
        this.problem = undefined;
      } else this.problem = `Key settings could not be read (${res.error.message}): using the NEST keys`;
    });
    return off;
  }

  /** The action a key press asks for where it was pressed (the ticket's own keys resolve here too). */
  resolve(e: KeyboardEvent, opts: { repeats?: boolean } = {}): HotkeyAction | null {
    // `repeats`: the caller wants to know what a held key means, to swallow its repeats itself.
    const press: KeyPress = opts.repeats ? { ...keyPressOf(e), repeat: false } : e;
    return resolveHotkey(press, contextOf(e.target), this.keymap);
  }

  /** Applies a remap over the defaults, whole or not at all. */
  remap(overrides: Readonly<Record<string, unknown>>): boolean {
    const result = buildKeymap(overrides);
    if (!result.ok) {
      this.errors = result.errors;
      return false;
    }
    this.errors = [];
    this.keymap = result.keymap;
    return true;
  }

  /** Listens on `target` (the window); returns the function that stops listening. */
  attach(
    target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
    handler: HotkeyHandler,
  ): () => void {
    const listener = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const action = this.resolve(e);
      if (!action) return;
      // F1 opens help and F3 find in browsers, `/` is Firefox's quick find: the desk's meaning wins.
      e.preventDefault();
      handler(action, e);
    };
    target.addEventListener('keydown', listener);
    return () => target.removeEventListener('keydown', listener);
  }
}
