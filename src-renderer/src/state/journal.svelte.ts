// The Journal pane's state: the search form, the entries it found (journal.query, newest first), the
// entry open in detail, and the CSV export (journal.exportCsv: the host's save dialog in Electron,
// the data dir's exports/ in browser mode) with where it went and how many rows.
import type { BridgeApi, IpcError, JournalEntry, JournalExportResult, JournalQuery } from '@contract';
import {
  istDay,
  journalExportOf,
  journalQueryOf,
  type JournalSearchField,
  type JournalSearchForm,
} from '../lib/journal-filter';
import { ORDER_EVENT_NAMES } from '@shared/ipc-names.js';

/** The most entries one search shows; a longer day says so and asks for a narrower search. */
export const JOURNAL_PAGE = 2000;
/** Order activity settles into the journal as it happens: reread this long after the last event. */
const REFRESH_DEBOUNCE_MS = 400;
/** What rereads the journal: an order's events and the order book's changes. */
const ORDER_EVENTS = [...ORDER_EVENT_NAMES, 'books.orders'] as const;

export type JournalExportState =
  { kind: 'running' } | { kind: 'done'; result: JournalExportResult } | { kind: 'failed'; error: IpcError };

export interface JournalOptions {
  now?: () => number;
}

export class JournalState {
  form = $state<JournalSearchForm>({ symbol: '', strategy: '', orderId: '', day: '' });
  entries = $state.raw<JournalEntry[]>([]);
  /** The search the entries answer (the export takes the same). */
  query = $state.raw<JournalQuery | undefined>();
  loading = $state(false);
  loaded = $state(false);
  /** A field the search refused, and why. */
  invalid = $state<{ field: JournalSearchField; message: string } | undefined>();
  error = $state<IpcError | undefined>();
  selectedId = $state<string | undefined>();
  exporting = $state<JournalExportState | undefined>();

  readonly selected = $derived(this.entries.find((e) => e.id === this.selectedId));
  /** The search hit the page size: older entries exist that are not shown. */
  readonly truncated = $derived(this.entries.length >= JOURNAL_PAGE);

  readonly #bridge: BridgeApi;
  #seq = 0;
  #refreshSeq = 0;

  constructor(bridge: BridgeApi, options: JournalOptions = {}) {
    this.#bridge = bridge;
    this.form.day = istDay((options.now ?? Date.now)());
  }

  /** Runs the form's search; an answer to an earlier search is dropped. */
  async search(): Promise<boolean> {
    const parsed = journalQueryOf(this.form, JOURNAL_PAGE);
    if (!parsed.ok) {
      this.invalid = { field: parsed.field, message: parsed.message };
      return false;
    }
    this.invalid = undefined;
    const seq = ++this.#seq;
    this.loading = true;
    const res = await this.#bridge.invoke('journal.query', parsed.query);
    if (seq !== this.#seq) return false;
    this.loading = false;
    this.loaded = true;
    if (!res.ok) {
      this.error = res.error;
      return false;
    }
    this.error = undefined;
    this.query = parsed.query;
    this.entries = res.value;
    return true;
  }

  /** Rereads the current search (new order activity), keeping the form as typed. */
  async refresh(): Promise<void> {
    const query = this.query;
    if (!query || this.loading) return;
    const seq = this.#seq;
    const again = ++this.#refreshSeq;
    const res = await this.#bridge.invoke('journal.query', query);
    // A search started meanwhile, or a later refresh, owns the list.
    if (seq !== this.#seq || again !== this.#refreshSeq || !res.ok) return;
    this.entries = res.value;
  }

  clear(): Promise<boolean> {
    this.form = { symbol: '', strategy: '', orderId: '', day: '' };
    return this.search();
  }

  /** Writes the shown search to CSV (every matching row, oldest first), or the form's before any. */
  async exportCsv(): Promise<void> {
    if (this.exporting?.kind === 'running') return;
    let query = this.query;
    if (!query) {
      const parsed = journalQueryOf(this.form);
      if (!parsed.ok) {
        this.invalid = { field: parsed.field, message: parsed.message };
        return;
      }
      query = parsed.query;
    }
    this.exporting = { kind: 'running' };
    const res = await this.#bridge.invoke('journal.exportCsv', journalExportOf(query));
    this.exporting = res.ok ? { kind: 'done', result: res.value } : { kind: 'failed', error: res.error };
  }

  /** Rereads after order activity, at most once per quiet spell; returns the function that stops. */
  listen(): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poke = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void this.refresh(), REFRESH_DEBOUNCE_MS);
    };
    const offs = ORDER_EVENTS.map((e) => this.#bridge.on(e, poke));
    return () => {
      if (timer) clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }
}
