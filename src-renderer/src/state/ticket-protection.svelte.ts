// The regular ticket's protection (issue 25): the template picked (None, a saved template, or the
// trader's own figures), the form it fills, the spec parsed from it with every problem in words, the
// segment's default picked when a symbol of that segment loads, who holds the bracket (core-held, or
// one GTT OCO at the gateway for a CNC/NRML BUY with both legs), the one acknowledgement per session
// that a core-held bracket needs (OrderDesk places and cancels the legs itself, so it must keep
// running), and attaching the protection to an entry the gateway placed (`orders.protect`), said
// loudly whenever it was not attached. The templates and defaults come with the ticket's settings.
import type {
  Action,
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
  gttFits,
  noDefaultWords,
  sameForm,
  specOfForm,
  specWords,
  type ProtectionForm,
  type ProtectionKind,
  type ProtectionProblem,
  type SpecResult,
} from '../lib/protection-form';
import { CONFIRM_ARM_MS } from './send-step.svelte';
import type { SendFailure } from './send-once.svelte';

/** What the ticket says of every bracket it attaches: who keeps it, and what that asks of the trader. */
export const OCO_LABEL = 'core-held OCO: keep OrderDesk running';
/** The same of a bracket held at the gateway as one GTT OCO. */
export const GTT_LABEL = 'GTT OCO: rests at the gateway, holds with OrderDesk closed';
/** Each kind in a word or two (the row's choice, the attach line). */
export const KIND_WORDS: Readonly<Record<ProtectionKind, string>> = {
  core: 'core-held OCO',
  gtt: 'GTT OCO',
};
/** The one-time notice before the first protected send of a session. */
export const OCO_NOTICE =
  'OrderDesk places the stop (SL-M) and target (LIMIT) at each fill and cancels one when the other fills. If OrderDesk is closed, the legs are not kept.';

/** The picker's value: no protection, the trader's own figures, or a saved template by name. */
export type ProtectionPick = 'none' | 'custom' | `t:${string}`;
export const templatePick = (name: string): ProtectionPick => `t:${name}`;

/** What the entry is, as far as the protection cares: the ticket's product, side and freeze quantity. */
export interface ProtectedEntry {
  product: string;
  action: Action;
  /** The instrument's freeze quantity: legs above it rest in parts. */
  freeze: number | null | undefined;
}

/** The protection a send carries, taken when the send starts (a later edit does not change it). */
export interface ArmedProtection {
  spec: ProtectionSpec;
  words: string;
  kind: ProtectionKind;
  /** The instrument's freeze quantity, when it has one. */
  freeze?: number;
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
  /** Who the trader chose to hold the bracket; GTT counts only where it fits (`kind`). */
  held = $state<ProtectionKind>('core');

  #askedAt = 0;
  /** The ticket's entry as it stands (the row hands it over: `follow`). */
  #entry = $state.raw<(() => ProtectedEntry) | undefined>();
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
  /** A GTT OCO may hold this protection: a CNC/NRML BUY with both a stop and a target. */
  readonly gttOffered = $derived.by(() => {
    const e = this.#entry?.();
    return this.active && e !== undefined && gttFits(e.product, e.action, this.spec);
  });
  /** Who holds the bracket a send now would attach: GTT only where chosen and offered, else core. */
  readonly kind: ProtectionKind = $derived(this.held === 'gtt' && this.gttOffered ? 'gtt' : 'core');
  /** What the row says of who holds it. */
  readonly label = $derived(this.kind === 'gtt' ? GTT_LABEL : OCO_LABEL);
  /** Why a send with this protection cannot go, in words (undefined when it can, or when off). */
  readonly blocking = $derived(
    this.problems[0] ? `Protection: ${this.problems[0].message} (or pick None)` : undefined,
  );

  constructor(bridge: BridgeApi, now: () => number = () => performance.now()) {
    this.#bridge = bridge;
    this.#now = now;
  }

  /** The ticket's entry (product, side, freeze quantity), read live: what the GTT choice depends on. */
  follow(entry: () => ProtectedEntry): void {
    this.#entry = entry;
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
    // Each symbol starts core-held (the core's default); GTT is chosen for the entry at hand.
    this.held = 'core';
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
    if (!this.active || !spec) return undefined;
    const freeze = this.#entry?.().freeze;
    return {
      spec,
      words: specWords(spec),
      kind: this.kind,
      ...(freeze != null && Number.isInteger(freeze) && freeze > 0 ? { freeze } : {}),
    };
  }

  /** The send wants a core-held bracket the trader has not yet acknowledged (a GTT OCO needs none). */
  get needsAck(): boolean {
    return this.active && this.kind === 'core' && !this.acknowledged;
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
   * entry's own fields, the instrument's tick and freeze quantity, and who holds it); says loudly
   * when it is not attached.
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
          ...(armed.freeze !== undefined ? { freeze: armed.freeze } : {}),
          kind: armed.kind,
          spec: armed.spec,
        })
        .catch((e: unknown) => ({
          ok: false as const,
          error: { message: e instanceof Error ? e.message : 'no answer' },
        }));
      this.attachLine = res.ok
        ? { tone: 'ok', text: `Protected: ${armed.words} · ${KIND_WORDS[armed.kind]}` }
        : {
            tone: 'bad',
            text: `Protection NOT attached: ${res.error.message}. Order ${outcome.orderid} is live without protection`,
          };
    } finally {
      this.attaching = false;
    }
  }
}
