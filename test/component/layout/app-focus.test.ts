import { fireEvent, render, screen } from '@testing-library/svelte';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Settings } from '@contract';
import App from '../../../src-renderer/src/App.svelte';
import { flush, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';
import { FakeBridge } from '../../support/component/fake-bridge';

beforeAll(() => installLayout());

async function setup() {
  const b = new FakeBridge().answer('session.snapshot', () => ({ ok: true, value: snapshot({}) }));
  Object.assign(window, { bridge: b });
  render(App);
  for (let i = 0; i < 5; i++) await flush();
  return b;
}

describe('the desk (App): the focus area and the ticket commands', () => {
  it('has Depth | Chain | Strategy | Chart | Journal and a Settings gear; each tab shows its pane, never a load error', async () => {
    await setup();
    const names = screen.getByRole('tablist', { name: 'Focus pane' }).querySelectorAll('[role="tab"]');
    expect([...names].map((t) => t.textContent?.trim())).toEqual([
      'Depth',
      'Chain',
      'Strategy',
      'Chart',
      'Journal',
      '⚙ Settings',
    ]);
    for (const name of ['Chain', 'Strategy', 'Chart', 'Journal', 'Settings']) {
      await fireEvent.click(screen.getByRole('tab', { name: new RegExp(name) }));
      for (let i = 0; i < 5; i++) await flush();
      const panel = screen.getByRole('tabpanel', { name: new RegExp(name) });
      // Never a broken mount: the pane itself (or its "Loading" line), never a load error.
      expect(panel.textContent?.trim()).not.toBe('');
      expect(panel.querySelector('[role="alert"].pane-note')).toBeNull();
    }
  });

  it('Settings stay mounted once opened: a half-typed field survives a look at Depth', async () => {
    const b = await setup();
    b.answer('settings.get', () => ({ ok: true, value: Settings.parse({}) }));
    await fireEvent.click(screen.getByRole('tab', { name: /Settings/ }));
    // The pane is a lazy chunk: its first import takes a moment.
    const field = await vi.waitFor(
      () => {
        const el = document
          .getElementById('focus-panel')!
          .querySelector<HTMLInputElement>('input:not([type="checkbox"]):not([type="radio"])');
        if (!el) throw new Error('no settings field yet');
        return el;
      },
      { timeout: 15_000 },
    );
    await fireEvent.input(field, { target: { value: '4321' } });
    await fireEvent.click(screen.getByRole('tab', { name: 'Depth' }));
    for (let i = 0; i < 3; i++) await flush();
    expect(field.closest('[hidden]')).not.toBeNull();
    await fireEvent.click(screen.getByRole('tab', { name: /Settings/ }));
    for (let i = 0; i < 3; i++) await flush();
    expect(field.isConnected).toBe(true);
    expect(field.value).toBe('4321');
    expect(field.closest('[hidden]')).toBeNull();
  });

  it('F6 brings Depth back from another focus tab and focuses it', async () => {
    await setup();
    await fireEvent.click(screen.getByRole('tab', { name: 'Journal' }));
    expect(screen.getByRole('tab', { name: 'Journal' })).toHaveAttribute('aria-selected', 'true');
    await fireEvent.keyDown(window, { key: 'F6' });
    for (let i = 0; i < 3; i++) await flush();
    expect(screen.getByRole('tab', { name: 'Depth' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('region', { name: 'Market depth' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Focus pane' }).contains(document.activeElement)).toBe(true);
  });

  it("the tray's show-ticket puts the caret in the ticket's symbol search, not on BUY", async () => {
    const b = await setup();
    b.emit('shell.command', { command: 'show-ticket' });
    await flush();
    expect(document.activeElement?.id).toBe('ticket-search');
  });
});
