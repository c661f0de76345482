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
    const ctx = (
      typingInInput: boolean,
      rowFocused: boolean,
      ticketFocused: boolean,
      navigating: boolean,
    ) => ({
      typingInInput,
      rowFocused,
      ticketFocused,
      navigating,
    });
    expect(contextOf(el('qty'))).toEqual(ctx(true, false, true, true));
    // A radio group moves with its arrows: it navigates, though nothing is typed into it.
    expect(contextOf(el('cnc'))).toEqual(ctx(false, false, true, true));
    expect(contextOf(el('send'))).toEqual(ctx(false, false, true, false));
    expect(contextOf(el('row'))).toEqual(ctx(false, true, false, true));
    expect(contextOf(el('act'))).toEqual(ctx(false, true, false, true));
    expect(contextOf(el('note')).typingInInput).toBe(true);
    expect(contextOf(el('edit')).typingInInput).toBe(true);
    expect(contextOf(null)).toEqual(ctx(false, false, false, false));
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

describe('arrow keys bound by a preset (OpenAlgo scalping)', () => {
  it('act where focus is on the page or a button, never on a control that moves with them', () => {
    const root = mount(`
      <button id="btn">x</button>
      <div data-hotkey-row tabindex="0" id="row"></div>
      <input id="cnc" type="radio" name="p"><div role="separator" tabindex="0" id="split"></div>
      <div role="tablist"><button role="tab" id="tab">1</button></div><input id="qty">`);
    const seen: string[] = [];
    const h = new HotkeysState();
    h.apply({ preset: 'scalping', overrides: {} });
    const detach = h.attach(window, (a) => seen.push(a));
    const press = (id: string, key: string, shiftKey = false) => {
      const e = new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true });
      (id === 'body' ? document.body : root.querySelector(`#${id}`)!).dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(press('body', 'ArrowUp')).toBe(true);
    expect(press('btn', 'ArrowDown')).toBe(true);
    expect(press('btn', 'ArrowUp', true)).toBe(true);
    // The row, the radio group, the splitter, the tabs and the text field keep their arrows.
    for (const id of ['row', 'cnc', 'split', 'tab', 'qty']) expect(press(id, 'ArrowUp'), id).toBe(false);
    // The panic keys act from the text field.
    expect(press('qty', 'F7')).toBe(true);
    detach();
    expect(seen).toEqual(['atm.buyCall', 'atm.buyPut', 'atm.sellCall', 'orders.cancelAll']);
  });
});
