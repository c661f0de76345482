// The whole desk with the Kite preset saved in settings: App's one key map reaches every label of a
// key (the books tabs, Depth's tab, Positions' Close all and empty-book hint), and a settings.changed
// back to NEST moves them all again.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '@contract';
import App from '../../../src-renderer/src/App.svelte';
import { flush, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';
import { FakeBridge } from '../../support/component/fake-bridge';

beforeAll(() => installLayout());
afterEach(() => document.body.replaceChildren());

function settingsWith(
  preset: Settings['hotkeys']['preset'],
  overrides: Settings['hotkeys']['overrides'] = {},
): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), hotkeys: { preset, overrides } };
}

async function desk(): Promise<FakeBridge> {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({ positions: { positions: [], totalMtm: 0 } }),
    }))
    .answer('settings.get', () => ({
      ok: true,
      value: settingsWith('kite', { 'search.open': ['Ctrl+K'], 'row.buy': ['Alt+B'] }),
    }))
    .answer('market.watch', () => ({
      ok: true,
      value: { id: 'w', mode: 'quote', focus: false, symbols: [], rejected: [] },
    }))
    .answer('market.unwatch', () => ({ ok: true, value: { id: 'w', stopped: [] } }));
  Object.assign(window, { innerWidth: 1280, bridge: b });
  render(App);
  for (let i = 0; i < 6; i++) await flush();
  return b;
}

const shortcut = (name: RegExp) => screen.getByRole('tab', { name }).getAttribute('aria-keyshortcuts');

describe('the desk under the Kite preset', () => {
  it('every key label says Kite’s keys, and follows a change back to NEST', async () => {
    const b = await desk();
    expect(shortcut(/^Orders/)).toBe('Shift+O');
    expect(shortcut(/^Positions/)).toBe('Shift+P');
    expect(shortcut(/^Depth/)).toBe('D');
    const depthHint = () => screen.getByText(/^Depth follows the ticket's instrument/).textContent;
    expect(depthHint()).toMatch(/Ctrl\+K to search, or Alt\+B\/S on a watchlist row\.$/);
    await fireEvent.click(screen.getByRole('tab', { name: /^Positions/ }));
    await flush();
    expect(screen.getByText('No positions today · Shift+B to buy, Shift+S to sell')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close all' }).getAttribute('aria-keyshortcuts')).toBe(
      'Control+Shift+Q',
    );

    b.emit('settings.changed', { seq: 50, settings: settingsWith('nest') });
    await flush();
    expect(shortcut(/^Positions/)).toBe('Alt+F6');
    expect(shortcut(/^Depth/)).toBe('F6');
    expect(depthHint()).toMatch(/\/ to search, or B\/S on a watchlist row\.$/);
    expect(screen.getByText('No positions today · F1 to buy, F2 to sell')).toBeInTheDocument();
  });
});
