// Measures the option chain for lib/chain-fit.ts: the pane's width (a ResizeObserver on the scroller)
// and the table's own widths, read at its content width (not stretched to the pane), so what is
// measured does not depend on the room. It measures when the pane or the table changes size, never
// per tick; a width that grows past the pane makes the table wider, which measures again.
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
      const watch = new ResizeObserver(() => {
        this.room = s.clientWidth;
        if (t) this.measure(t);
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
