// Measures the option chain for lib/chain-fit.ts: the pane's width (a ResizeObserver on the scroller)
// and the table's own widths, read at its content width (not stretched to the pane), so what is
// measured does not depend on the room. It measures when the pane, the table's width or its columns
// change, never per tick or per load; a width that grows past the pane makes the table wider, which
// measures again.
import type { ChainColumn } from '@contract';
import { fitChainColumns, type ChainFit, type ChainWidths } from '../../lib/chain-fit';

/** The attribute an optional column's header cells carry: the column's id. */
export const FIT_COLUMN = 'data-fit-col';

export class ChainFitState {
  /** The scroller's inner width in px (0 until laid out). */
  room = $state(0);
  widths = $state<ChainWidths>({ core: 0, columns: {} });

  /** The chosen columns that fit the pane. */
  fit(shown: readonly ChainColumn[]): ChainFit {
    return fitChainColumns(shown, this.room, this.widths);
  }

  /** Call while a component sets up: follows the scroller's and the table's sizes. */
  observe(scroller: () => HTMLElement | undefined, table: () => HTMLElement | undefined): void {
    $effect(() => {
      const s = scroller();
      const t = table();
      if (!s || typeof ResizeObserver === 'undefined') return;
      let measuredFor = '';
      const watch = new ResizeObserver(() => {
        this.room = s.clientWidth;
        if (!t) return;
        // A load changes the table's height only: measuring forces a layout (~8 ms on 41 strikes),
        // so it is done when the room, the table's width, its columns or its first rows change.
        const key = measureKey(this.room, t);
        if (key === measuredFor) return;
        measuredFor = key;
        this.measure(t);
      });
      watch.observe(s);
      if (t) watch.observe(t);
      return () => watch.disconnect();
    });
  }

  /** Reads the widths at the table's content width; the hidden columns keep their last widths. */
  measure(table: HTMLElement): void {
    const before = table.style.width;
    table.style.width = 'max-content';
    const total = table.getBoundingClientRect().width;
    const columns: Partial<Record<ChainColumn, number>> = { ...this.widths.columns };
    const seen: Partial<Record<ChainColumn, number>> = {};
    for (const th of table.querySelectorAll<HTMLElement>(`th[${FIT_COLUMN}]`)) {
      const c = th.getAttribute(FIT_COLUMN) as ChainColumn;
      seen[c] = (seen[c] ?? 0) + th.getBoundingClientRect().width;
    }
    table.style.width = before;
    let optional = 0;
    const measured = Object.entries(seen) as [ChainColumn, number][];
    for (const [c, w] of measured) {
      columns[c] = w;
      optional += w;
    }
    const core = Math.ceil(total - optional);
    const same =
      core === this.widths.core &&
      measured.every(([c, w]) => Math.abs((this.widths.columns[c] ?? -9) - w) < 0.5);
    if (!same) this.widths = { core, columns };
  }
}

/**
 * What the table's widths depend on, read without a layout (the observer's callback runs after one):
 * the room, the table's width, its optional columns and whether it has rows yet.
 */
function measureKey(room: number, table: HTMLElement): string {
  const columns = [...table.querySelectorAll(`th[${FIT_COLUMN}]`)].map((th) => th.getAttribute(FIT_COLUMN));
  const rows = table.querySelector('tbody tr') !== null;
  return `${room} ${table.offsetWidth} ${rows} ${columns.join(',')}`;
}
