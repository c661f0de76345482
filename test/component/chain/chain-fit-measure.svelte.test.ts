// The chain's measuring half (components/chain/chain-fit.svelte.ts): widths read at the table's
// content width (the stretch to the pane undone while reading), both legs of a column summed, the
// always-shown part as the rest, and a column dropped for room keeping its last width so it comes
// back when the pane widens.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { ChainFitState, FIT_COLUMN } from '../../../src-renderer/src/components/chain/chain-fit.svelte';

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

/** A table whose header cells report the given widths (jsdom lays nothing out). */
function table(total: number, heads: [string, number][]): HTMLTableElement {
  const t = document.createElement('table');
  t.style.width = '100%';
  const seen: string[] = [];
  t.getBoundingClientRect = () => {
    seen.push(t.style.width);
    return { width: total } as DOMRect;
  };
  const row = t.createTHead().insertRow();
  for (const [col, width] of heads) {
    const th = document.createElement('th');
    th.setAttribute(FIT_COLUMN, col);
    th.getBoundingClientRect = () => ({ width }) as DOMRect;
    row.appendChild(th);
  }
  document.body.appendChild(t);
  return Object.assign(t, { seen });
}

describe('ChainFitState.measure', () => {
  it('reads at content width, sums both legs, and the rest is the always-shown part', () => {
    const fit = new ChainFitState();
    const t = table(640, [
      ['oi', 42.5],
      ['iv', 39],
      ['iv', 39],
      ['oi', 42.5],
    ]);
    fit.measure(t);
    expect((t as unknown as { seen: string[] }).seen).toEqual(['max-content']);
    expect(t.style.width).toBe('100%');
    expect(fit.widths).toEqual({ core: 477, columns: { oi: 85, iv: 78 } });

    // 600 px of room: OI (85) goes, IV stays.
    fit.room = 600;
    expect(fit.fit(['oi', 'chg', 'iv'])).toEqual({ visible: ['chg', 'iv'], hidden: ['oi'] });
  });

  it('a dropped column keeps its last width: the fit brings it back when the pane has room', () => {
    const fit = new ChainFitState();
    fit.measure(
      table(640, [
        ['oi', 42.5],
        ['iv', 39],
        ['iv', 39],
        ['oi', 42.5],
      ]),
    );
    // OI no longer drawn: the table is narrower, OI's width is remembered.
    fit.measure(
      table(555, [
        ['iv', 39],
        ['iv', 39],
      ]),
    );
    expect(fit.widths).toEqual({ core: 477, columns: { oi: 85, iv: 78 } });
    fit.room = 639;
    expect(fit.fit(['oi', 'iv']).hidden).toEqual(['oi']);
    fit.room = 640;
    expect(fit.fit(['oi', 'iv']).hidden).toEqual([]);
  });

  it('the same widths again change nothing (no refit loop)', () => {
    const fit = new ChainFitState();
    const heads: [string, number][] = [
      ['iv', 39],
      ['iv', 39],
    ];
    fit.measure(table(555, heads));
    const first = fit.widths;
    fit.measure(table(555, heads));
    expect(fit.widths).toBe(first);
  });
});

describe('ChainFitState.observe', () => {
  it('measures when the room, the columns or the first rows change; a load that only adds height does not', () => {
    let fire = (): void => undefined;
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: () => void) {
          fire = cb;
        }
        observe(): void {}
        disconnect(): void {}
      },
    );
    const fit = new ChainFitState();
    const t = table(555, [
      ['iv', 39],
      ['iv', 39],
    ]);
    const seen = (t as unknown as { seen: string[] }).seen;
    const scroller = document.createElement('div');
    let room = 800;
    Object.defineProperty(scroller, 'clientWidth', { get: () => room });
    const stop = $effect.root(() =>
      fit.observe(
        () => scroller,
        () => t,
      ),
    );
    flushSync();
    const body = t.createTBody();

    fire();
    expect(seen).toHaveLength(1);
    // Rows arrive: widths depend on what the cells hold, so it measures once more.
    body.insertRow().insertCell();
    fire();
    expect(seen).toHaveLength(2);
    // A reload's rows (the table taller, nothing else): no forced layout.
    body.insertRow().insertCell();
    fire();
    expect(seen).toHaveLength(2);
    // The pane narrower, then a column chosen: each measures.
    room = 700;
    fire();
    expect(fit.room).toBe(700);
    expect(seen).toHaveLength(3);
    const th = document.createElement('th');
    th.setAttribute(FIT_COLUMN, 'oi');
    th.getBoundingClientRect = () => ({ width: 40 }) as DOMRect;
    t.tHead!.rows[0]!.appendChild(th);
    fire();
    expect(seen).toHaveLength(4);
    expect(fit.widths.columns.oi).toBe(40);
    stop();
  });
});
