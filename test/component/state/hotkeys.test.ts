import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_KEYMAP, type HotkeyAction } from '../../../src-renderer/src/lib/hotkeys';
import { HotkeysState, contextOf } from '../../../src-renderer/src/state/hotkeys.svelte';

afterEach(() => document.body.replaceChildren());

function mount(html: string): HTMLElement {
  document.body.innerHTML = html;
  return document.body;
}

describe('the context of a key press', () => {
  it('knows a text field, a row and the ticket from where focus is', () => {
    const root = mount(`
      <div data-hotkey-ticket><input id="qty"><input id="cnc" type="radio"><button id="send">Send</button></div>
      <table><tr data-hotkey-row tabindex="0" id="row"><td><button id="act">x</button></td></tr></table>
      <textarea id="note"></textarea><div id="edit" contenteditable="true"></div>`);
    const el = (id: string) => root.querySelector(`#${id}`);
    expect(contextOf(el('qty'))).toEqual({ typingInInput: true, rowFocused: false, ticketFocused: true });
    expect(contextOf(el('cnc'))).toEqual({ typingInInput: false, rowFocused: false, ticketFocused: true });
    expect(contextOf(el('send'))).toEqual({ typingInInput: false, rowFocused: false, ticketFocused: true });
    expect(contextOf(el('row'))).toEqual({ typingInInput: false, rowFocused: true, ticketFocused: false });
    expect(contextOf(el('act'))).toEqual({ typingInInput: false, rowFocused: true, ticketFocused: false });
    expect(contextOf(el('note')).typingInInput).toBe(true);
    expect(contextOf(el('edit')).typingInInput).toBe(true);
    expect(contextOf(null)).toEqual({ typingInInput: false, rowFocused: false, ticketFocused: false });
  });
});

describe('the live key map', () => {
  it('dispatches actions from window keydowns and stops when detached', () => {
    const root = mount('<div data-hotkey-row tabindex="0" id="row"></div>');
    const row = root.querySelector('#row')!;
    const seen: HotkeyAction[] = [];
    const h = new HotkeysState();
    const detach = h.attach(window, (a) => seen.push(a));
    const press = (key: string) => {
      const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      row.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(press('s')).toBe(true);
    expect(press('z')).toBe(false);
    detach();
    expect(press('s')).toBe(false);
    expect(seen).toEqual(['row.sell']);
  });

  it('applies a valid remap and keeps the old map when one is refused', () => {
    const h = new HotkeysState();
    expect(h.remap({ 'search.open': 'Ctrl+K' })).toBe(true);
    expect(h.keymap['search.open']).toEqual(['Ctrl+K']);
    expect(h.remap({ 'pane.depth': 'F3' })).toBe(false);
    expect(h.errors.map((e) => e.code)).toEqual(['duplicate']);
    expect(h.keymap['search.open']).toEqual(['Ctrl+K']);
    expect(h.keymap['pane.depth']).toEqual(DEFAULT_KEYMAP['pane.depth']);
  });
});
