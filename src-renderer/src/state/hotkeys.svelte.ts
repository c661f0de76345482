// The desk's live key map and its one keydown listener: works out the context from where focus is
// (a text field, a row marked `data-hotkey-row`, the ticket marked `data-hotkey-ticket`), resolves
// the press with lib/hotkeys and hands the action to the desk, taking the key from the page.
import {
  DEFAULT_KEYMAP,
  buildKeymap,
  resolveHotkey,
  type HotkeyAction,
  type HotkeyContext,
  type Keymap,
  type KeymapError,
} from '../lib/hotkeys';

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

function editable(el: Element): boolean {
  if (el instanceof HTMLElement && el.isContentEditable) return true;
  // Not every DOM has isContentEditable (jsdom): the nearest contenteditable attribute decides.
  const host = el.closest('[contenteditable]');
  return host !== null && host.getAttribute('contenteditable') !== 'false';
}

/** Where focus is, as the resolver needs it. */
export function contextOf(target: EventTarget | null): HotkeyContext {
  if (!(target instanceof Element)) return { typingInInput: false, rowFocused: false, ticketFocused: false };
  const typing =
    (target instanceof HTMLInputElement && !NOT_TYPED.has(target.type)) ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    editable(target);
  return {
    typingInInput: typing,
    rowFocused: target.closest(`[${ROW_ATTRIBUTE}]`) !== null,
    ticketFocused: target.closest(`[${TICKET_ATTRIBUTE}]`) !== null,
  };
}

export type HotkeyHandler = (action: HotkeyAction, event: KeyboardEvent) => void;

export class HotkeysState {
  keymap = $state.raw<Keymap>(DEFAULT_KEYMAP);
  /** Why the last remap was refused (nothing of it applied). */
  errors = $state<KeymapError[]>([]);

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
      const action = resolveHotkey(e, contextOf(e.target), this.keymap);
      if (!action) return;
      // F1 opens help and F3 find in browsers, `/` is Firefox's quick find: the desk's meaning wins.
      e.preventDefault();
      handler(action, e);
    };
    target.addEventListener('keydown', listener);
    return () => target.removeEventListener('keydown', listener);
  }
}
