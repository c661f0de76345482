// The desk's remembered layout: the watchlist and ticket column widths, the books panel's height,
// each table's column widths and the option chain's columns (settings.layout). Changes show at once
// and are saved a moment after the last one (a drag is many changes, one save); a refused save says
// why.
import type {
  BridgeApi,
  ChainColumn,
  LAYOUT_BOUNDS as CONTRACT_BOUNDS,
  LayoutSettings,
  LayoutSettingsPatch,
} from '@contract';

/**
 * The contract's bounds, restated because the renderer imports contract types only: the contract's
 * constant is `as const`, so its type holds these exact numbers and tsc refuses any drift.
 */
export const LAYOUT_BOUNDS: typeof CONTRACT_BOUNDS = {
  watchlistWidth: { min: 200, max: 520, default: 280 },
  ticketWidth: { min: 300, max: 560, default: 340 },
  booksHeight: { min: 120, max: 720, default: 280 },
  columnWidth: { min: 36, max: 800 },
};

export type PanelSize = 'watchlistWidth' | 'ticketWidth' | 'booksHeight';
type ColumnWidths = LayoutSettings['tableColumns'];

/** How long after the last change the layout is saved. */
export const LAYOUT_SAVE_DELAY_MS = 400;

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(v)));

export class LayoutState {
  watchlistWidth = $state<number>(LAYOUT_BOUNDS.watchlistWidth.default);
  ticketWidth = $state<number>(LAYOUT_BOUNDS.ticketWidth.default);
  booksHeight = $state<number>(LAYOUT_BOUNDS.booksHeight.default);
  /** Table label → column id → px; replaced whole on each change. */
  tableColumns = $state.raw<ColumnWidths>({});
  /** The option chain's shown optional columns; undefined: the chain's defaults. */
  chainColumns = $state.raw<readonly ChainColumn[] | undefined>();
  /** Why the layout could not be read or the last change saved. */
  problem = $state<string | undefined>();

  readonly #bridge: BridgeApi;
  readonly #delayMs: number;
  #pending: LayoutSettingsPatch = {};
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(bridge: BridgeApi, options: { saveDelayMs?: number } = {}) {
    this.#bridge = bridge;
    this.#delayMs = options.saveDelayMs ?? LAYOUT_SAVE_DELAY_MS;
  }

  /** Reads the saved layout; returns the stop, which saves a change still waiting. */
  start(): () => void {
    void this.load();
    return () => void this.flush();
  }

  async load(): Promise<void> {
    const res = await this.#bridge.invoke('settings.get');
    if (!res.ok) {
      this.problem = `Layout could not be read (${res.error.message}); default sizes in use`;
      return;
    }
    // A size the trader changed before the answer came keeps the trader's value.
    const l = res.value.layout;
    if (!('watchlistWidth' in this.#pending)) this.watchlistWidth = l.watchlistWidth;
    if (!('ticketWidth' in this.#pending)) this.ticketWidth = l.ticketWidth;
    if (!('booksHeight' in this.#pending)) this.booksHeight = l.booksHeight;
    if (!('tableColumns' in this.#pending)) this.tableColumns = l.tableColumns;
    if (!('chainColumns' in this.#pending)) this.chainColumns = l.chainColumns;
    this.problem = undefined;
  }

  /** Sets a panel size within its bounds (returns the size applied) and schedules the save. */
  setSize(which: PanelSize, px: number): number {
    const b = LAYOUT_BOUNDS[which];
    const v = clamp(px, b.min, b.max);
    if (v === this[which]) return v;
    this[which] = v;
    this.#queue({ [which]: v });
    return v;
  }

  columnWidth(table: string, column: string): number | undefined {
    return this.tableColumns[table]?.[column];
  }

  /** Sets one table column's width within bounds and schedules the save. */
  setColumnWidth(table: string, column: string, px: number): number {
    const v = clamp(px, LAYOUT_BOUNDS.columnWidth.min, LAYOUT_BOUNDS.columnWidth.max);
    if (this.tableColumns[table]?.[column] === v) return v;
    this.tableColumns = { ...this.tableColumns, [table]: { ...this.tableColumns[table], [column]: v } };
    this.#queue({ tableColumns: this.tableColumns });
    return v;
  }

  /** Forgets one column's width (back to the table's own track). */
  resetColumn(table: string, column: string): void {
    const cols = this.tableColumns[table];
    if (!cols || !(column in cols)) return;
    const rest = { ...cols };
    delete rest[column];
    this.tableColumns = { ...this.tableColumns, [table]: rest };
    this.#queue({ tableColumns: this.tableColumns });
  }

  /** Forgets a table's column widths (back to the table's own). */
  resetColumns(table: string): void {
    if (!(table in this.tableColumns)) return;
    const next = { ...this.tableColumns };
    delete next[table];
    this.tableColumns = next;
    this.#queue({ tableColumns: next });
  }

  /** Sets the option chain's shown columns and schedules the save. */
  setChainColumns(columns: readonly ChainColumn[]): void {
    this.chainColumns = columns;
    this.#queue({ chainColumns: [...columns] });
  }

  #queue(change: LayoutSettingsPatch): void {
    this.#pending = { ...this.#pending, ...change };
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), this.#delayMs);
  }

  /** Saves the waiting change now (a drag's end, the window closing). */
  async flush(): Promise<boolean> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const layout = this.#pending;
    if (Object.keys(layout).length === 0) return true;
    this.#pending = {};
    const res = await this.#bridge.invoke('settings.update', { layout });
    if (res.ok) {
      this.problem = undefined;
      return true;
    }
    // The sizes stay on screen for this session; the trader is told they will not be remembered.
    this.problem = `Layout not saved: ${res.error.message}`;
    return false;
  }
}
