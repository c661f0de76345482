// Key presets and the resolve+conflicts function the Settings pane shows and the desk applies.
import { describe, expect, it } from 'vitest';
import type { KeyPress } from '../../../src-renderer/src/lib/chords';
import { HOTKEY_ACTIONS, resolveHotkey, type HotkeyContext } from '../../../src-renderer/src/lib/hotkeys';
import {
  HOTKEY_PRESETS,
  PRESET_KEYMAPS,
  ariaKeyshortcuts,
  chordLabel,
  resolveKeymap,
} from '../../../src-renderer/src/lib/keymap-presets';

const idle: HotkeyContext = {
  typingInInput: false,
  rowFocused: false,
  ticketFocused: false,
  navigating: false,
};
const typing: HotkeyContext = { ...idle, typingInInput: true, navigating: true };
const onRow: HotkeyContext = { ...idle, rowFocused: true, navigating: true };
const key = (k: string, extra: Partial<KeyPress> = {}): KeyPress => ({ key: k, ...extra });

describe('the presets', () => {
  it('are each sound as they stand: every action listed, no conflict', () => {
    for (const preset of HOTKEY_PRESETS) {
      const r = resolveKeymap(preset, {});
      expect(r).toMatchObject({ preset, applied: true, conflicts: [] });
      expect(Object.keys(r.keymap).sort()).toEqual([...HOTKEY_ACTIONS].sort());
    }
  });

  it('NEST: function keys; Kite: letters; both keep the panic chords', () => {
    const nest = PRESET_KEYMAPS.nest;
    const kite = PRESET_KEYMAPS.kite;
    expect(resolveHotkey(key('F1'), idle, nest)).toBe('ticket.buy');
    expect(resolveHotkey(key('F6'), idle, nest)).toBe('pane.depth');
    expect(resolveHotkey(key('F1'), idle, kite)).toBeNull();
    expect(resolveHotkey(key('B', { shiftKey: true }), idle, kite)).toBe('ticket.buy');
    expect(resolveHotkey(key('d'), idle, kite)).toBe('pane.depth');
    expect(resolveHotkey(key('O', { shiftKey: true }), idle, kite)).toBe('pane.orders');
    expect(resolveHotkey(key('b'), onRow, kite)).toBe('row.buy');
    // Kite's letters never leave a text field.
    expect(resolveHotkey(key('B', { shiftKey: true }), typing, kite)).toBeNull();
    expect(resolveHotkey(key('d'), typing, kite)).toBeNull();
    for (const map of [nest, kite])
      expect(resolveHotkey(key('x', { ctrlKey: true, shiftKey: true, code: 'KeyX' }), typing, map)).toBe(
        'orders.cancelAll',
      );
  });

  it('the ticket keys: order type, product and repeat-last act from a field; NEST F-keys, Kite Alt+letters', () => {
    const inTicket: HotkeyContext = { ...typing, ticketFocused: true };
    const cases = [
      ['nest', key('F7'), 'ticket.market'],
      ['nest', key('F9'), 'ticket.nextType'],
      ['nest', key('F10'), 'ticket.nextProduct'],
      ['nest', key('F12', { shiftKey: true }), 'ticket.repeatLast'],
      ['kite', key('m', { altKey: true, code: 'KeyM' }), 'ticket.market'],
      ['kite', key('t', { altKey: true, code: 'KeyT' }), 'ticket.nextType'],
      ['kite', key('p', { altKey: true, code: 'KeyP' }), 'ticket.nextProduct'],
      ['kite', key('r', { altKey: true, code: 'KeyR' }), 'ticket.repeatLast'],
      // Scalping keeps F7 for cancel all: market moves to Shift+F7.
      ['scalping', key('F7', { shiftKey: true }), 'ticket.market'],
      ['scalping', key('F7'), 'orders.cancelAll'],
    ] as const;
    for (const [preset, press, action] of cases)
      expect(resolveHotkey(press, inTicket, PRESET_KEYMAPS[preset]), `${preset} ${press.key}`).toBe(action);
    // Type and product belong to the ticket; repeat-last works from anywhere.
    expect(resolveHotkey(key('F9'), idle, PRESET_KEYMAPS.nest)).toBeNull();
    expect(resolveHotkey(key('F12', { shiftKey: true }), idle, PRESET_KEYMAPS.nest)).toBe(
      'ticket.repeatLast',
    );
  });

  it('OpenAlgo scalping: arrows trade the at-the-money options, F6 closes all, F7 cancels all', () => {
    const m = PRESET_KEYMAPS.scalping;
    expect(resolveHotkey(key('ArrowUp'), idle, m)).toBe('atm.buyCall');
    expect(resolveHotkey(key('ArrowDown'), idle, m)).toBe('atm.buyPut');
    expect(resolveHotkey(key('ArrowUp', { shiftKey: true }), idle, m)).toBe('atm.sellCall');
    expect(resolveHotkey(key('ArrowDown', { shiftKey: true }), idle, m)).toBe('atm.sellPut');
    expect(resolveHotkey(key('F6'), idle, m)).toBe('positions.closeAll');
    expect(resolveHotkey(key('F7'), idle, m)).toBe('orders.cancelAll');
    expect(resolveHotkey(key('F6', { shiftKey: true }), idle, m)).toBe('pane.depth');
    // The panic keys act from inside a text field; the arrows leave a field, a row or a radio alone.
    expect(resolveHotkey(key('F7'), typing, m)).toBe('orders.cancelAll');
    expect(resolveHotkey(key('ArrowUp'), typing, m)).toBeNull();
    expect(resolveHotkey(key('ArrowDown'), onRow, m)).toBeNull();
    expect(resolveHotkey(key('ArrowUp'), { ...idle, navigating: true }, m)).toBeNull();
    // NEST binds no one-click keys.
    expect(resolveHotkey(key('ArrowUp'), idle, PRESET_KEYMAPS.nest)).toBeNull();
  });
});

describe('overrides and conflicts', () => {
  it('applies overrides over the chosen preset', () => {
    const r = resolveKeymap('scalping', { 'atm.buyCall': ['Ctrl+ArrowUp'], 'pane.depth': [] });
    expect(r.applied).toBe(true);
    expect(r.conflicts).toEqual([]);
    expect(r.keymap['atm.buyCall']).toEqual(['Ctrl+ArrowUp']);
    expect(r.keymap['pane.depth']).toEqual([]);
    expect(r.keymap['positions.closeAll']).toEqual(['F6', 'Ctrl+Shift+Q']);
    expect(chordLabel(r.keymap, 'positions.closeAll')).toBe('F6 / Ctrl+Shift+Q');
    expect(ariaKeyshortcuts(r.keymap, 'positions.closeAll')).toBe('F6 Control+Shift+Q');
    expect(ariaKeyshortcuts(r.keymap, 'pane.depth')).toBeUndefined();
  });

  it('refuses two actions on one chord, naming both in words, and keeps the preset whole', () => {
    const r = resolveKeymap('nest', { 'search.open': ['Ctrl+K'], 'ticket.sell': ['F1'] });
    expect(r.applied).toBe(false);
    expect(r.conflicts).toEqual([
      {
        code: 'duplicate',
        action: 'ticket.sell',
        chord: 'F1',
        message: 'F1 is bound to both Buy the focused instrument and Sell the focused instrument',
      },
    ]);
    // Nothing of a conflicting set applies, not even its sound part.
    expect(r.keymap).toBe(PRESET_KEYMAPS.nest);
  });

  it('refuses a chord that would type into a field for an action that must work while typing', () => {
    const cancelAll = resolveKeymap('nest', { 'orders.cancelAll': ['X'] });
    expect(cancelAll.conflicts.map((c) => [c.code, c.action, c.chord])).toEqual([
      ['types_text', 'orders.cancelAll', 'X'],
    ]);
    expect(cancelAll.conflicts[0]?.message).toMatch(/X types in text fields.*Cancel all open orders/);
    expect(resolveKeymap('nest', { 'ticket.send': ['Shift+S'] }).conflicts[0]?.code).toBe('types_text');
    expect(resolveKeymap('nest', { 'positions.closeAll': ['ArrowDown'] }).conflicts[0]?.code).toBe(
      'types_text',
    );
    // A letter for an action that yields to fields is fine: it acts only outside them.
    const kiteBuy = resolveKeymap('nest', { 'ticket.buy': ['Shift+B'], 'ticket.sell': ['F2'] });
    expect(kiteBuy).toMatchObject({ applied: true, conflicts: [] });
    expect(resolveHotkey(key('B', { shiftKey: true }), typing, kiteBuy.keymap)).toBeNull();
  });

  it('refuses keys the browser or the OS keep, and Enter/Esc/Tab/Space off the ticket', () => {
    for (const [action, chord] of [
      ['pane.orders', 'F5'],
      ['pane.trades', 'Ctrl+W'],
      ['pane.depth', 'F12'],
      ['search.open', 'Ctrl+L'],
      ['pane.watchlist', 'Tab'],
      ['atm.buyCall', 'Space'],
      ['pane.positions', 'Enter'],
      ['row.cancel', 'Escape'],
      ['orders.cancelAll', 'Ctrl+C'],
    ] as const) {
      const r = resolveKeymap('nest', { [action]: [chord] });
      expect(r.applied, `${action} ${chord}`).toBe(false);
      expect(r.conflicts.map((c) => [c.code, c.action, c.chord])).toEqual([['reserved', action, chord]]);
      expect(r.conflicts[0]?.message).toContain(`${chord} `);
    }
    expect(resolveKeymap('nest', { 'pane.orders': ['F5'] }).conflicts[0]?.message).toBe(
      'F5 reloads the window: choose another key for Orders',
    );
  });

  it('reports bad chords and unknown actions, and an unknown preset falls back to NEST saying so', () => {
    const r = resolveKeymap('ninja', { 'orders.nuke': ['F9'], 'pane.depth': ['Hyper+D'] });
    expect(r.preset).toBe('nest');
    expect(r.applied).toBe(false);
    expect(r.keymap).toBe(PRESET_KEYMAPS.nest);
    expect(r.conflicts.map((c) => c.code)).toEqual(['bad_binding', 'unknown_action', 'bad_chord']);
    expect(r.conflicts[0]?.message).toBe('ninja is not a key preset (nest, kite, scalping): using NEST');
  });
});
