// The regular ticket's protection (issue 25): the template picked (None, a saved template, or the
// trader's own figures), the form it fills, the spec parsed from it with every problem in words, the
// segment's default picked when a symbol of that segment loads, the one acknowledgement per session
// that the bracket is core-held (OrderDesk places and cancels the legs itself, so it must keep
// running), and attaching the protection to an entry the gateway placed (`orders.protect`), said
// loudly whenever it was not attached. The templates and defaults come with the ticket's settings.
import type {
  BridgeApi,
  PlaceOrderIpcInput,
  ProtectionSettings,
  ProtectionSpec,
  ProtectionTemplate,
} from '@contract';
import {
  defaultTemplateFor,
  emptyForm,
  formOfSpec,
  noDefaultWords,
  sameForm,
  specOfForm,
  specWords,
  type ProtectionForm,
  type ProtectionProblem,
  type SpecResult,
} from '../lib/protection-form';
import { CONFIRM_ARM_MS } from './send-step.svelte';
import type { SendFailure } from './send-once.svelte';

/** What the ticket says of every bracket it attaches: who keeps it, and what that asks of the trader. */
export const OCO_LABEL = 'core-held OCO: keep OrderDesk running';
/** The one-time notice before the first protected send of a session. */
export const OCO_NOTICE =
  'OrderDesk places the stop (SL-M) and target (LIMIT) at each fill and cancels one when the other fills. If OrderDesk is closed, the legs are not kept.';

/** The picker's value: no protection, the trader's own figures, or a saved template by name. */
export type ProtectionPick = 'none' | 'custom' | `t:${string}`;
export const templatePick = (name: string): ProtectionPick => `t:${name}`;

/** The protection a send carries, taken when the send starts (a later edit does not change it). */
export interface ArmedProtection {
  spec: ProtectionSpec;
  words: string;
}

export interface AttachLine {
  tone: 'ok' | 'warn' | 'bad';
  text: string;
}

/** The entry's answer as the ticket keeps it (TicketOutcome). */
type EntryOutcome = { kind: 'placed'; orderid: string } | SendFailure;

export class TicketProtection {
  templates = $state.raw<readonly ProtectionTemplate[]>([]);
  defaults = $state.raw<ProtectionSettings['defaults']>({});
  /** Settings were read: the templates and defaults are known. */
  loaded = $state(false);
  pick = $state<ProtectionPick>('none');
  form = $state<ProtectionForm>(emptyForm());
  /** The trader opened the row with None picked ("Protect ▸"); a picked protection is always shown. */
  open = $state(false);
  /** The trader acknowledged this session that brackets are core-held. */
  acknowledged = $state(false);
  /** The acknowledgement is on screen, in place of the send button. */
  asking = $state(false);
  /** What the last protection key or acknowledgement press did, when it did nothing. */
  hint = $state<string | undefined>();
  /** What became of the last entry's protection. */
  attachLine = $state<AttachLine | undefined>();
  attaching = $state(false);

  #askedAt = 0;
  #exchange: string | undefined;
  /** The trader chose since the symbol loaded: settings read later do not override the choice. */
  #chosen = false;
  readonly #bridge: BridgeApi;
  readonly #now: () => number;

  readonly template = $derived(
    this.pick.startsWith('t:') ? this.templates.find((t) => `t:${t.name}` === this.pick) : undefined,
  );
  readonly active = $derived(this.pick !== 'none');
  /** The row is on show: a protection is picked, or the trader opened it to pick one. */
  readonly shown = $derived(this.active || this.open);
  /** The figures are the trader's own, not a template's as saved. */
  readonly custom = $derived(
    this.active && (!this.template || !sameForm(this.form, formOfSpec(this.template.spec))),
  );
  readonly parsed: SpecResult | undefined = $derived(this.active ? specOfForm(this.form) : undefined);
  readonly problems: readonly ProtectionProblem[] = $derived(
    this.parsed && !this.parsed.ok ? this.parsed.problems : [],
  );
  readonly spec: ProtectionSpec | undefined = $derived(this.parsed?.ok ? this.parsed.spec : undefined);
  /** Why a send with this protection cannot go, in words (undefined when it can, or when off). */
  readonly blocking = $derived(
    this.problems[0] ? `Protection: ${this.problems[0].message} (or pick None)` : undefined,
  );

  constructor(bridge: BridgeApi, now: () => number = () => performance.now()) {
    this.#bridge = bridge;
    this.#now = now;
  }

  /** The templates and defaults as settings hold them (settings.get, settings.changed). */
  apply(saved: ProtectionSettings | undefined): void {
    this.templates = saved?.templates ?? [];
    this.defaults = saved?.defaults ?? {};
    const first = !this.loaded;
    this.loaded = true;
    // A symbol loaded before settings were read takes its segment's default now.
    if (first && !this.#chosen && this.#exchange !== undefined) this.loadFor(this.#exchange);
  }

  /** A symbol of `exchange` loads: its segment's default template, or None. */
  loadFor(exchange: string): void {
    this.#exchange = exchange;
    this.#chosen = false;
    this.open = false;
    this.attachLine = undefined;
    this.hint = undefined;
    this.asking = false;
    const t = defaultTemplateFor(exchange, { templates: this.templates, defaults: this.defaults });
    this.#set(t ? templatePick(t.name) : 'none');
  }

  /** The trader picks in the picker: a template fills the fields; Custom keeps what they show. */
  choose(pick: ProtectionPick): void {
    this.#chosen = true;
    // None picked in the row leaves the row open under the caret.
    this.open = true;
    this.hint = undefined;
    this.#set(pick);
  }

  #set(pick: ProtectionPick): void {
    const t = pick.startsWith('t:') ? this.templates.find((x) => `t:${x.name}` === pick) : undefined;
    if (pick.startsWith('t:') && !t) pick = 'none';
    this.pick = pick;
    if (t) this.form = formOfSpec(t.spec);
    else if (pick === 'none') this.form = emptyForm();
  }

  /**
   * The protection hotkey: the segment's default template, as saved (the row's edits give way to it).
   * Undefined when it is picked; otherwise why not, in words (the caller sends nothing then).
   */
  useDefault(exchange: string | undefined): string | undefined {
    if (exchange === undefined) return 'Choose an instrument first: nothing sent';
    const t = defaultTemplateFor(exchange, { templates: this.templates, defaults: this.defaults });
    if (!t) return noDefaultWords(exchange);
    this.choose(templatePick(t.name));
    return undefined;
  }

  /** The protection a send starting now carries; undefined when the picker says None. */
  arm(): ArmedProtection | undefined {
    const spec = this.spec;
    return this.active && spec ? { spec, words: specWords(spec) } : undefined;
  }

  /** The send wants protection that the trader has not yet acknowledged as core-held. */
  get needsAck(): boolean {
    return this.active && !this.acknowledged;
  }

  /** Puts the acknowledgement on screen. */
  ask(): void {
    this.asking = true;
    this.hint = undefined;
    this.#askedAt = this.#now();
  }

  /** The trader's key or click on the acknowledgement: true once acknowledged (not the same hurried press). */
  acknowledge(): boolean {
    if (!this.asking) return this.acknowledged;
    if (this.#now() - this.#askedAt < CONFIRM_ARM_MS) {
      this.hint = 'Press Enter again to acknowledge';
      return false;
    }
    this.acknowledged = true;
    this.asking = false;
    this.hint = undefined;
    return true;
  }

  /** Esc or Back on the acknowledgement: nothing sent. */
  back(): boolean {
    if (!this.asking) return false;
    this.asking = false;
    this.hint = undefined;
    return true;
  }

  /** A send with protection starts: the last entry's line gives way to this one's. */
  starting(): void {
    this.attachLine = undefined;
  }

  /**
   * After the entry's answer: attaches the protection to a placed entry (`orders.protect`, with the
   * entry's own fields and the instrument's tick); says loudly when it is not attached.
   */
  async attach(
    entry: PlaceOrderIpcInput,
    outcome: EntryOutcome,
    armed: ArmedProtection,
    tick: number | undefined,
  ): Promise<void> {
    if (outcome.kind === 'unknown') {
      this.attachLine = {
        tone: 'bad',
        text: "Protection NOT attached: the entry's outcome is unknown. Watch the Orders book: if the entry is live, it has no stop",
      };
      return;
    }
    if (outcome.kind === 'queued') {
      this.attachLine = {
        tone: 'bad',
        text: 'Protection NOT attached: the entry is held for approval, not placed',
      };
      return;
    }
    // Refused: nothing was placed, so there is nothing to protect (the refusal says so).
    if (outcome.kind !== 'placed') return;
    if (tick === undefined || !(tick > 0)) {
      this.attachLine = {
        tone: 'bad',
        text: `Protection NOT attached: the instrument's tick is not known. Order ${outcome.orderid} is live without protection`,
      };
      return;
    }
    this.attaching = true;
    try {
      const res = await this.#bridge
        .invoke('orders.protect', {
          orderid: outcome.orderid,
          symbol: entry.symbol,
          exchange: entry.exchange,
          product: entry.product,
          action: entry.action,
          tick,
          spec: armed.spec,
        })
        .catch((e: unknown) => ({
          ok: false as const,
          error: { message: e instanceof Error ? e.message : 'no answer' },
        }));
      this.attachLine = res.ok
        ? { tone: 'ok', text: `Protected: ${armed.words} · core-held OCO` }
        : {
            tone: 'bad',
            text: `Protection NOT attached: ${res.error.message}. Order ${outcome.orderid} is live without protection`,
          };
    } finally {
      this.attaching = false;
    }
  }
}
