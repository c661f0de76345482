// The Settings pane's state: the saved settings (settings.get, then settings.changed, newest seq
// only), a save per section through settings.update whose refusal is split by field (main names each
// refused field by its path, so the reason shows beside the field it belongs to), and the soft daily
// limits as the core counts them now (risk.daily).
import type { BridgeApi, DailyLimitsState, IpcError, Settings, SettingsPatch } from '@contract';

/** Reasons by dotted field path (`risk.maxValuePerOrder`); `''` holds a reason for no one field. */
export type FieldErrors = Readonly<Record<string, string>>;

export type SaveResult = { ok: true } | { ok: false; errors: FieldErrors };

/** Main's refusal split by field: its `fields` when it named them, else the whole message under ''. */
export function fieldErrors(error: IpcError): FieldErrors {
  const out: Record<string, string> = {};
  for (const f of error.fields ?? []) if (!(f.path in out)) out[f.path] = f.message;
  if (Object.keys(out).length === 0) out[''] = error.message;
  return out;
}

export class SettingsState {
  settings = $state.raw<Settings | undefined>();
  daily = $state.raw<DailyLimitsState | undefined>();
  /** Why the settings or the daily counts could not be read. */
  problem = $state<string | undefined>();
  /** Sections saving now (a second save of one waits for the first). */
  saving = $state<Readonly<Record<string, boolean>>>({});

  readonly #bridge: BridgeApi;
  #seq = 0;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
  }

  /** Reads the settings and the daily counts, follows changes made anywhere; returns the stop. */
  start(): () => void {
    const offs = [
      this.#bridge.on('settings.changed', (e) => {
        if (e.seq <= this.#seq) return;
        this.#seq = e.seq;
        this.settings = e.settings;
        void this.refreshDaily();
      }),
      // An order sent or filled moves the day's count and P&L.
      this.#bridge.on('orders.accepted', () => void this.refreshDaily()),
      this.#bridge.on('books.positions', () => void this.refreshDaily()),
    ];
    void this.load();
    return () => {
      for (const off of offs) off();
    };
  }

  async load(): Promise<void> {
    const r = await this.#bridge.invoke('settings.get');
    if (!r.ok) {
      this.problem = `Settings could not be read: ${r.error.message}`;
      return;
    }
    // A settings.changed that arrived meanwhile is newer than this answer.
    if (this.#seq === 0) this.settings = r.value;
    this.problem = undefined;
    await this.refreshDaily();
  }

  async refreshDaily(): Promise<void> {
    const r = await this.#bridge.invoke('risk.daily');
    if (r.ok) this.daily = r.value;
  }

  /** Saves one section's change; a refusal comes back split by field, nothing of it applied. */
  async save(section: string, patch: SettingsPatch): Promise<SaveResult> {
    if (this.saving[section]) return { ok: false, errors: { '': 'Still saving the last change' } };
    this.saving = { ...this.saving, [section]: true };
    try {
      const r = await this.#bridge.invoke('settings.update', patch);
      if (!r.ok) return { ok: false, errors: fieldErrors(r.error) };
      this.settings = r.value;
      if (section === 'risk') void this.refreshDaily();
      return { ok: true };
    } finally {
      this.saving = { ...this.saving, [section]: false };
    }
  }
}
