// The desk's remembered layout (part of settings.json): the watchlist and ticket column widths, the
// books panel's height, each table's column widths and the option chain's columns. A value out of
// bounds in a saved file falls back to its default (a layout is never a reason to refuse the whole
// settings file); a patch out of bounds is refused with the bound in words.
import { z } from 'zod';

/** Pixels: min, max and default for each panel size (the desk clamps drags to these too). */
export const LAYOUT_BOUNDS = {
  watchlistWidth: { min: 200, max: 520, default: 280 },
  ticketWidth: { min: 300, max: 560, default: 340 },
  booksHeight: { min: 120, max: 720, default: 280 },
  columnWidth: { min: 36, max: 800 },
} as const;
export const LAYOUT_TABLES_MAX = 32;
export const LAYOUT_COLUMNS_MAX = 32;

const px = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number of pixels` })
    .int(`${field} must be a whole number of pixels`)
    .min(min, `${field} must be at least ${min} px`)
    .max(max, `${field} must be at most ${max} px`);

const name = (what: string) =>
  z.string().trim().min(1, `${what} cannot be empty`).max(40, `${what} must be at most 40 characters`);

/** A table's label (Orders, Positions, …) → its column id → width in pixels. */
const TableColumnWidths = z
  .record(
    name('a table name'),
    z
      .record(
        name('a column id'),
        px('a column width', LAYOUT_BOUNDS.columnWidth.min, LAYOUT_BOUNDS.columnWidth.max),
      )
      .refine((c) => Object.keys(c).length <= LAYOUT_COLUMNS_MAX, `at most ${LAYOUT_COLUMNS_MAX} columns`),
  )
  .refine((t) => Object.keys(t).length <= LAYOUT_TABLES_MAX, `at most ${LAYOUT_TABLES_MAX} tables`);

/** The option chain's optional columns per leg, outermost first (calls read them left to right). */
export const CHAIN_COLUMNS = ['oi', 'chg', 'vega', 'theta', 'gamma', 'delta', 'iv'] as const;
export type ChainColumn = (typeof CHAIN_COLUMNS)[number];

const ChainColumns = z
  .array(z.enum(CHAIN_COLUMNS, { error: `a chain column must be one of ${CHAIN_COLUMNS.join(', ')}` }))
  .max(CHAIN_COLUMNS.length, `at most ${CHAIN_COLUMNS.length} chain columns`);

const b = LAYOUT_BOUNDS;
export const layoutFields = {
  watchlistWidth: px('Watchlist width', b.watchlistWidth.min, b.watchlistWidth.max),
  ticketWidth: px('Ticket width', b.ticketWidth.min, b.ticketWidth.max),
  booksHeight: px('Books height', b.booksHeight.min, b.booksHeight.max),
  tableColumns: TableColumnWidths,
  /** The option chain's shown optional columns; absent means the chain's defaults. */
  chainColumns: ChainColumns,
};

export const LayoutSettings = z.object({
  watchlistWidth: layoutFields.watchlistWidth.catch(b.watchlistWidth.default),
  ticketWidth: layoutFields.ticketWidth.catch(b.ticketWidth.default),
  booksHeight: layoutFields.booksHeight.catch(b.booksHeight.default),
  tableColumns: layoutFields.tableColumns.catch({}),
  chainColumns: layoutFields.chainColumns.optional().catch(undefined),
});
export type LayoutSettings = z.infer<typeof LayoutSettings>;

/** A layout change: the sizes given change; `tableColumns` comes whole (a resize rewrites it). */
export const LayoutSettingsPatch = z.strictObject(layoutFields).partial();
export type LayoutSettingsPatch = z.infer<typeof LayoutSettingsPatch>;
