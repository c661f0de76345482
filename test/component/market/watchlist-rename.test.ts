// Renaming a watchlist inline: the ✎ button or a double click opens the editor, Enter saves (through
// settings.update, so it survives a reload), Esc cancels, and a name that cannot be used says why.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type SettingsPatch } from '@contract';
import Watchlist from '../../../src-renderer/src/panes/Watchlist.svelte';
import { HOTKEYS } from '../../../src-renderer/src/state/context';
import { HotkeysState } from '../../../src-renderer/src/state/hotkeys.svelte';
import { deskFixture, settle } from '../../support/component/desk-fixture';
import { SBIN } from '../../support/component/instruments';

afterEach(() => document.body.replaceChildren());

async function mountList() {
  const f = deskFixture({ instruments: [SBIN] });
  const view = render(Watchlist, { context: f.context });
  await settle();
  return { ...f, view };
}

const tabs = () => screen.getAllByRole('tab').map((t) => t.textContent?.trim());
const editor = () => screen.getByRole('textbox', { name: /New name for watchlist/ }) as HTMLInputElement;
async function type(text: string) {
  editor().value = text;
  await fireEvent.input(editor());
}

describe('renaming a watchlist', () => {
  it('Enter saves the new name in settings; the tab shows it and keeps focus; a remount reads it back', async () => {
    const { bridge, context, view } = await mountList();
    await fireEvent.click(screen.getByRole('button', { name: 'Rename watchlist 1' }));
    expect(document.activeElement).toBe(editor());
    expect(editor().value).toBe('1');
    await type('  Banks ');
    await fireEvent.keyDown(editor(), { key: 'Enter' });
    await settle();
    expect(tabs()).toEqual(['Banks', '2', '3', '4', '5']);
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Banks' }));
    expect(screen.getByRole('status').textContent).toMatch(/Watchlist 1 renamed to Banks/);
    const saved = bridge.callsTo('settings.update').at(-1)?.input as SettingsPatch;
    expect(saved.watchlists?.map((l) => l.name)).toEqual(['Banks', '2', '3', '4', '5']);
    // The items of the renamed list are kept as they were.
    expect(saved.watchlists?.[0]?.items).toEqual(DEFAULT_SETTINGS.watchlists[0]?.items);
    view.unmount();
    render(Watchlist, { context });
    await settle();
    expect(tabs()).toEqual(['Banks', '2', '3', '4', '5']);
  });

  it('Esc cancels: nothing saved, the old name stays, focus back on the tab', async () => {
    const { bridge } = await mountList();
    await fireEvent.dblClick(screen.getByRole('tab', { name: '3' }));
    await type('Momentum');
    await fireEvent.keyDown(editor(), { key: 'Escape' });
    await settle();
    expect(tabs()).toEqual(['1', '2', '3', '4', '5']);
    expect(bridge.callsTo('settings.update')).toHaveLength(0);
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: '3' }));
  });

  it('refuses an empty, too long or duplicate name with the reason next to the field, saving nothing', async () => {
    const { bridge } = await mountList();
    await fireEvent.click(screen.getByRole('button', { name: 'Rename watchlist 1' }));
    const reason = () => document.getElementById('watchlist-name-problem')?.textContent?.trim();
    await type('   ');
    expect(reason()).toBe('A watchlist needs a name');
    expect(editor().getAttribute('aria-invalid')).toBe('true');
    await fireEvent.keyDown(editor(), { key: 'Enter' });
    await type('x'.repeat(25));
    expect(reason()).toBe('At most 24 characters (this is 25)');
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await type('2');
    expect(reason()).toBe('Another watchlist (tab 2) is already called 2');
    await fireEvent.keyDown(editor(), { key: 'Enter' });
    await settle();
    // Still editing, nothing saved, and the reason said once (by the field).
    expect(editor()).toBeInTheDocument();
    expect(screen.getAllByText('Another watchlist (tab 2) is already called 2')).toHaveLength(1);
    expect(bridge.callsTo('settings.update')).toHaveLength(0);
    await type('Nifty weekly');
    expect(reason()).toBe('Enter saves, Esc cancels');
    expect(editor().getAttribute('aria-invalid')).toBe('false');
  });

  it('a refused save puts the saved name back and says why', async () => {
    const { bridge } = await mountList();
    bridge.answer('settings.update', () => ({
      ok: false,
      error: { kind: 'invalid_input', message: 'settings file is read-only' },
    }));
    await fireEvent.click(screen.getByRole('button', { name: 'Rename watchlist 1' }));
    await type('Banks');
    await fireEvent.keyDown(editor(), { key: 'Enter' });
    await settle();
    expect(tabs()).toEqual(['1', '2', '3', '4', '5']);
    expect(screen.getByRole('status').textContent).toMatch(/not saved: settings file is read-only/);
  });
});

describe('row keys follow the window key map', () => {
  it('with row.buy remapped to Alt+B, B on a row no longer opens the ticket and Alt+B does', async () => {
    const f = deskFixture({ instruments: [SBIN] });
    const hotkeys = new HotkeysState();
    hotkeys.apply({ preset: 'nest', overrides: { 'row.buy': ['Alt+B'] } });
    f.context.set(HOTKEYS, hotkeys);
    render(Watchlist, { context: f.context });
    await settle();
    const row = document.querySelector('tr[data-instrument="NSE:SBIN"]') as HTMLElement;
    // The row says its keys as the map has them.
    expect(row.getAttribute('aria-label')).toMatch(/\. Alt\+B buy, S sell, Delete remove/);
    row.focus();
    await fireEvent.keyDown(row, { key: 'b' });
    await settle();
    expect(f.ticket.instrument).toBeUndefined();
    await fireEvent.keyDown(row, { key: 'b', code: 'KeyB', altKey: true });
    await settle();
    expect(f.ticket.instrument?.symbol).toBe('SBIN');
    expect(f.ticket.side).toBe('BUY');
  });
});
