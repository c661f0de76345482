// The remembered layout: panel splitters (drag or keys) and table column grips change sizes at once,
// save them to settings.layout once, and a reload restores them; crossing the narrow width keeps the
// one ticket (its draft) instead of mounting a new one.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, Settings, type SettingsPatch } from '@contract';
import App from '../../../src-renderer/src/App.svelte';
import { LayoutState } from '../../../src-renderer/src/state/layout.svelte';
import { flush, order, ordersView, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';
import { FakeBridge } from '../../support/component/fake-bridge';
import { pass, useMovedClock } from '../../support/component/moved-clock';

beforeAll(() => installLayout());
afterEach(() => {
  vi.useRealTimers();
  Object.assign(window, { innerWidth: 1024 });
  document.body.replaceChildren();
});

/** A bridge whose settings live in memory across "reloads", merged as the core merges a patch. */
function bridgeWith(saved: Settings) {
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({ orders: ordersView([order({ orderid: 'A1', status: 'open' })]) }),
    }))
    .answer('settings.get', () => ({ ok: true, value: structuredClone(saved) }))
    .answer('settings.update', (patch) => {
      const p = patch as SettingsPatch;
      saved.layout = { ...saved.layout, ...p.layout };
      return { ok: true, value: structuredClone(saved) };
    });
  return b;
}

async function desk(b: FakeBridge, width = 1280) {
  Object.assign(window, { innerWidth: width, bridge: b });
  const r = render(App);
  for (let i = 0; i < 6; i++) await flush();
  return r;
}

describe('settings.layout (contract)', () => {
  it('old settings files get the default layout; a saved size out of bounds falls back to its default', () => {
    expect(DEFAULT_SETTINGS.layout).toEqual({
      watchlistWidth: 280,
      ticketWidth: 340,
      booksHeight: 280,
      tableColumns: {},
    });
    const s = Settings.parse({ layout: { watchlistWidth: 5, booksHeight: 300 } });
    expect(s.layout.watchlistWidth).toBe(280);
    expect(s.layout.booksHeight).toBe(300);
  });
});

describe('LayoutState', () => {
  it('clamps to the bounds, saves once after a burst of changes, and says why a save was refused', async () => {
    const saved = Settings.parse({});
    const b = bridgeWith(saved);
    useMovedClock();
    const l = new LayoutState(b, { saveDelayMs: 20 });
    expect(l.setSize('watchlistWidth', 10)).toBe(200);
    l.setSize('watchlistWidth', 300);
    l.setSize('booksHeight', 9999);
    expect(b.callsTo('settings.update')).toHaveLength(0);
    await pass(40);
    vi.useRealTimers();
    expect(b.callsTo('settings.update')).toEqual([
      { channel: 'settings.update', input: { layout: { watchlistWidth: 300, booksHeight: 720 } } },
    ]);
    b.answer('settings.update', () => ({ ok: false, error: { kind: 'internal', message: 'disk full' } }));
    l.setColumnWidth('Orders', 'time', 90);
    expect(await l.flush()).toBe(false);
    expect(l.problem).toBe('Layout not saved: disk full');
    // Kept on screen for this session.
    expect(l.columnWidth('Orders', 'time')).toBe(90);
  });
});

describe('the desk (App): resizable, remembered panels', () => {
  it('the watchlist splitter resizes by keys, the books splitter by drag, and both come back on reload', async () => {
    const saved = Settings.parse({});
    const b = bridgeWith(saved);
    const first = await desk(b);
    const watch = screen.getByRole('separator', { name: 'Resize watchlist' });
    expect(watch).toHaveAttribute('aria-valuenow', '280');
    watch.focus();
    await fireEvent.keyDown(watch, { key: 'ArrowRight' });
    await fireEvent.keyDown(watch, { key: 'ArrowRight', shiftKey: true });
    expect(watch).toHaveAttribute('aria-valuenow', String(280 + 8 + 40));
    expect(screen.getByRole('main').style.getPropertyValue('--watch-w')).toBe('328px');

    // Dragging the bar above the books up by 60 px makes the books 60 px taller.
    const books = screen.getByRole('separator', { name: 'Resize books panel' });
    await fireEvent.pointerDown(books, { button: 0, pointerId: 1, clientY: 400 });
    await fireEvent.pointerMove(books, { pointerId: 1, clientY: 370 });
    await fireEvent.pointerMove(books, { pointerId: 1, clientY: 340 });
    await fireEvent.pointerUp(books, { pointerId: 1, clientY: 340 });
    for (let i = 0; i < 3; i++) await flush();
    expect(books).toHaveAttribute('aria-valuenow', '340');
    expect(saved.layout).toMatchObject({ watchlistWidth: 328, booksHeight: 340 });

    first.unmount();
    await desk(bridgeWith(saved));
    expect(screen.getByRole('separator', { name: 'Resize watchlist' })).toHaveAttribute(
      'aria-valuenow',
      '328',
    );
    expect(screen.getByRole('separator', { name: 'Resize books panel' })).toHaveAttribute(
      'aria-valuenow',
      '340',
    );
    expect(screen.getByRole('main').style.getPropertyValue('--books-h')).toBe('340px');
  });

  it('a splitter stops where the window has no more room, and says so in its value and bounds', async () => {
    const saved = Settings.parse({ layout: { watchlistWidth: 500 } });
    await desk(bridgeWith(saved), 1280);
    const watch = screen.getByRole('separator', { name: 'Resize watchlist' });
    // 30% of 1280 px: the remembered 500 is shown at 384 (and kept for a larger window).
    expect(watch).toHaveAttribute('aria-valuenow', '384');
    expect(watch).toHaveAttribute('aria-valuemax', '384');
    expect(screen.getByRole('main').style.getPropertyValue('--watch-w')).toBe('384px');
    await fireEvent.keyDown(watch, { key: 'End' });
    expect(watch).toHaveAttribute('aria-valuenow', '384');
    await fireEvent.keyDown(watch, { key: 'Home' });
    expect(watch).toHaveAttribute('aria-valuenow', '200');
  });

  it("a table column's grip widens it by keys, is remembered per table and restored on reload", async () => {
    const saved = Settings.parse({});
    const first = await desk(bridgeWith(saved));
    const table = screen.getByRole('grid', { name: 'Orders' });
    const grips = within(table).getAllByRole('separator');
    expect(grips.length).toBeGreaterThan(3);
    const grip = grips[0]!;
    // jsdom has no layout: the column's measured width is 0, so the first step lands on the minimum.
    await fireEvent.keyDown(grip, { key: 'ArrowRight' });
    await fireEvent.keyDown(grip, { key: 'ArrowRight' });
    for (let i = 0; i < 3; i++) await flush();
    const col = grip.getAttribute('data-grip')!;
    expect(saved.layout.tableColumns.Orders?.[col]).toBe(44);
    const head = table.querySelector<HTMLElement>('[role="row"]')!;
    expect(head.style.gridTemplateColumns.startsWith('44px ')).toBe(true);

    first.unmount();
    await desk(bridgeWith(saved));
    const again = screen.getByRole('grid', { name: 'Orders' }).querySelector<HTMLElement>('[role="row"]')!;
    expect(again.style.gridTemplateColumns.startsWith('44px ')).toBe(true);
  });

  it('crossing the narrow width keeps the same first-run panel (what was typed in it stays)', async () => {
    const b = new FakeBridge().answer('session.snapshot', () => ({
      ok: true,
      value: snapshot({
        profile: {
          id: 'live1',
          name: 'My broker',
          kind: 'gateway',
          baseUrl: 'http://127.0.0.1:5000',
          strategy: 'OrderDesk',
          rateLimitPerSecond: 10,
          active: true,
          hasKey: false,
        },
        mode: 'live',
        connection: 'no_key',
        apiKey: { profileId: 'live1', present: false, backend: 'memory', persistent: false },
      }),
    }));
    await desk(b);
    const panel = screen.getByTestId('first-run');
    const field = panel.querySelector<HTMLInputElement>('input')!;
    await fireEvent.input(field, { target: { value: 'typed-before' } });
    Object.assign(window, { innerWidth: 420 });
    window.dispatchEvent(new Event('resize'));
    for (let i = 0; i < 3; i++) await flush();
    expect(screen.getByTestId('first-run')).toBe(panel);
    expect(field.isConnected).toBe(true);
    expect(field.value).toBe('typed-before');
  });

  it('crossing the narrow width keeps the same ticket (its typed search and its element)', async () => {
    const saved = Settings.parse({});
    await desk(bridgeWith(saved));
    const search = document.getElementById('ticket-search') as HTMLInputElement;
    expect(search).toBeTruthy();
    await fireEvent.input(search, { target: { value: 'INF' } });
    Object.assign(window, { innerWidth: 420 });
    window.dispatchEvent(new Event('resize'));
    for (let i = 0; i < 3; i++) await flush();
    expect(screen.queryByRole('separator', { name: 'Resize watchlist' })).toBeNull();
    expect(document.getElementById('ticket-search')).toBe(search);
    expect(search.isConnected).toBe(true);
    expect(search.value).toBe('INF');
    Object.assign(window, { innerWidth: 1280 });
    window.dispatchEvent(new Event('resize'));
    for (let i = 0; i < 3; i++) await flush();
    expect(screen.getByRole('separator', { name: 'Resize watchlist' })).toBeInTheDocument();
    expect(document.getElementById('ticket-search')).toBe(search);
  });
});
