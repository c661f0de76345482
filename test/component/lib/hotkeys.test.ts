import { describe, expect, it } from 'vitest';
import { chordOf, parseChord, type KeyPress } from '../../../src-renderer/src/lib/chords';
import {
  DEFAULT_KEYMAP,
  HOTKEY_ACTIONS,
  HOTKEY_DEFS,
  resolveHotkey,
  type HotkeyContext,
} from '../../../src-renderer/src/lib/hotkeys';
import { buildKeymap } from '../../../src-renderer/src/lib/keymap-build';

const idle: HotkeyContext = { typingInInput: false, rowFocused: false, ticketFocused: false };
const typing: HotkeyContext = { ...idle, typingInInput: true };
const onRow: HotkeyContext = { ...idle, rowFocused: true };
const inTicket: HotkeyContext = { typingInInput: true, rowFocused: false, ticketFocused: true };

const key = (k: string, extra: Partial<KeyPress> = {}): KeyPress => ({ key: k, ...extra });

describe('the default map', () => {
  it('binds the keys of desk-design.md', () => {
    expect(DEFAULT_KEYMAP).toMatchObject({
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
    });
    for (const a of HOTKEY_ACTIONS) expect(HOTKEY_DEFS[a].label.length).toBeGreaterThan(0);
  });

  it('is valid as it stands (every chord parses, none bound twice)', () => {
    expect(buildKeymap({})).toEqual({ ok: true, keymap: DEFAULT_KEYMAP });
    for (const a of HOTKEY_ACTIONS)
      for (const c of DEFAULT_KEYMAP[a]) expect(parseChord(c)).toEqual({ ok: true, chord: c });
  });
});

describe('resolving a key press', () => {
  it('lets a letter type in a field, while F1 still opens a buy ticket', () => {
    expect(resolveHotkey(key('b'), { ...typing, rowFocused: true })).toBeNull();
    expect(resolveHotkey(key('/'), typing)).toBeNull();
    expect(resolveHotkey(key('F1'), typing)).toBe('ticket.buy');
    expect(resolveHotkey(key('F2'), typing)).toBe('ticket.sell');
    expect(resolveHotkey(key('F6', { altKey: true }), typing)).toBe('pane.positions');
    expect(resolveHotkey(key('X', { ctrlKey: true, shiftKey: true, code: 'KeyX' }), typing)).toBe(
      'orders.cancelAll',
    );
  });

  it('sends and closes the ticket from its fields only', () => {
    expect(resolveHotkey(key('Enter'), inTicket)).toBe('ticket.send');
    expect(resolveHotkey(key('Escape'), inTicket)).toBe('ticket.cancel');
    expect(resolveHotkey(key('Esc'), inTicket)).toBe('ticket.cancel');
    // Enter on a confirm dialog's button, or on a row, is never "send the ticket".
    expect(resolveHotkey(key('Enter'), idle)).toBeNull();
    expect(resolveHotkey(key('Enter'), onRow)).toBeNull();
  });

  it('acts on a row with B, S, M, C only when a row has focus', () => {
    expect(resolveHotkey(key('b'), onRow)).toBe('row.buy');
    expect(resolveHotkey(key('s'), onRow)).toBe('row.sell');
    expect(resolveHotkey(key('m'), onRow)).toBe('row.modify');
    expect(resolveHotkey(key('c'), onRow)).toBe('row.cancel');
    expect(resolveHotkey(key('b'), idle)).toBeNull();
    // Caps Lock gives an upper-case key without Shift: still B.
    expect(resolveHotkey(key('B'), onRow)).toBe('row.buy');
    // Shift+B is another chord.
    expect(resolveHotkey(key('B', { shiftKey: true }), onRow)).toBeNull();
  });

  it('opens the panes and search', () => {
    expect(resolveHotkey(key('F3'), idle)).toBe('pane.orders');
    expect(resolveHotkey(key('F4'), idle)).toBe('pane.watchlist');
    expect(resolveHotkey(key('F6'), idle)).toBe('pane.depth');
    expect(resolveHotkey(key('F8'), idle)).toBe('pane.trades');
    expect(resolveHotkey(key('/'), idle)).toBe('search.open');
    // A layout that types / with Shift still reads as /.
    expect(resolveHotkey(key('/', { shiftKey: true }), idle)).toBe('search.open');
    expect(resolveHotkey(key('Q', { ctrlKey: true, shiftKey: true, code: 'KeyQ' }), idle)).toBe(
      'positions.closeAll',
    );
  });

  it('ignores held-key repeats, IME composition and lone modifiers', () => {
    expect(resolveHotkey(key('F1', { repeat: true }), idle)).toBeNull();
    expect(resolveHotkey(key('Enter', { repeat: true }), inTicket)).toBeNull();
    expect(resolveHotkey(key('F1', { isComposing: true }), idle)).toBeNull();
    expect(chordOf(key('Control', { ctrlKey: true }))).toBeNull();
    expect(resolveHotkey(key('F5'), idle)).toBeNull();
  });

  it('takes the physical key for chords whose character depends on the layout', () => {
    // macOS: Alt+M types µ.
    expect(chordOf(key('µ', { altKey: true, code: 'KeyM' }))).toBe('Alt+M');
    expect(chordOf(key('x', { ctrlKey: true, shiftKey: true, code: 'KeyX' }))).toBe('Ctrl+Shift+X');
  });
});

describe('remapping', () => {
  it('applies overrides and resolves with the new map', () => {
    const r = buildKeymap({ 'ticket.buy': ['f1', 'shift+f1'], 'search.open': 'ctrl+k', 'row.modify': null });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.keymap['ticket.buy']).toEqual(['F1', 'Shift+F1']);
    expect(resolveHotkey(key('k', { ctrlKey: true, code: 'KeyK' }), typing, r.keymap)).toBe('search.open');
    expect(resolveHotkey(key('/'), idle, r.keymap)).toBeNull();
    expect(resolveHotkey(key('m'), onRow, r.keymap)).toBeNull();
  });

  it('refuses a chord bound to two actions, naming both', () => {
    const r = buildKeymap({ 'pane.depth': 'F3' });
    expect(r).toEqual({
      ok: false,
      errors: [
        {
          code: 'duplicate',
          action: 'pane.depth',
          chord: 'F3',
          message: 'F3 is bound to both Orders and Depth',
        },
      ],
    });
    // Two spellings of one chord are one chord.
    const twice = buildKeymap({ 'ticket.sell': 'f1' });
    expect(twice.ok).toBe(false);
    if (!twice.ok) expect(twice.errors.map((e) => e.code)).toEqual(['duplicate']);
  });

  it('refuses unknown actions, bad chords and bad values, applying nothing', () => {
    const r = buildKeymap({
      'orders.nuke': 'F9',
      'pane.depth': 'Hyper+D',
      'pane.trades': 'Ctrl+Ctrl+T',
      'row.buy': 42,
      'search.open': 'Shift+/',
      constructor: 'F10',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.code, e.action])).toEqual([
      ['unknown_action', 'orders.nuke'],
      ['bad_chord', 'pane.depth'],
      ['bad_chord', 'pane.trades'],
      ['bad_binding', 'row.buy'],
      ['bad_chord', 'search.open'],
      ['unknown_action', 'constructor'],
    ]);
  });
});
