// A bracket's protection as the ticket and the Settings pane type it: the form's texts, the
// contract's ProtectionSpec made from them (the same rules as src-main/contract/core/protection.ts,
// which the renderer may import as types only; a component test holds the two side by side), each
// problem in words naming the field, the levels the core would rest the legs at from a price, on the
// tick and rounded toward the fill as core/protection/levels.ts does, and whether the bracket may rest
// at the gateway as a GTT OCO (as core/protection/gtt-keeper.ts's gttUnfit).
import type {
  Action,
  BracketView,
  ProtectionBy,
  ProtectionSettings,
  ProtectionSpec,
  ProtectionTemplate,
  TicketSegment,
} from '@contract';
import {
  addDec,
  compareDec,
  decOf,
  divDec,
  isMultipleOf,
  mulDec,
  parseDecimal,
  roundToStep,
  toNumber,
  ZERO,
  type Dec,
} from '@shared/decimal.js';
import { SEGMENT_LABELS, segmentOf } from './ticket-defaults';

/** Mirrors the contract's PROTECTION_BY (renderer code imports contract types only). */
export const PROTECTION_BY_LIST: readonly ProtectionBy[] = ['points', 'percent', 'price'];
/** How the ticket's dense row says each way of measuring a distance. */
export const BY_SHORT: Readonly<Record<ProtectionBy, string>> = {
  points: 'pts',
  percent: '%',
  price: 'price',
};
export const BY_LONG: Readonly<Record<ProtectionBy, string>> = {
  points: 'points from the fill',
  percent: 'percent of the fill',
  price: 'an absolute price',
};

export interface DistanceForm {
  value: string;
  by: ProtectionBy;
}

/** The protection's fields as typed (texts, so nothing is lost before the contract's parse). */
export interface ProtectionForm {
  stop: DistanceForm;
  target: DistanceForm;
  trailStep: string;
  beTrigger: string;
  beOffset: string;
}

export type ProtectionField = 'stop' | 'target' | 'trailStep' | 'beTrigger' | 'beOffset' | 'spec';

export interface ProtectionProblem {
  field: ProtectionField;
  message: string;
}

export type SpecResult = { ok: true; spec: ProtectionSpec } | { ok: false; problems: ProtectionProblem[] };

export const emptyForm = (): ProtectionForm => ({
  stop: { value: '', by: 'points' },
  target: { value: '', by: 'points' },
  trailStep: '',
  beTrigger: '',
  beOffset: '',
});

/** A saved spec as the form shows it. */
export function formOfSpec(spec: ProtectionSpec): ProtectionForm {
  const form = emptyForm();
  if (spec.stop) form.stop = { ...spec.stop };
  if (spec.target) form.target = { ...spec.target };
  form.trailStep = spec.trailStep ?? '';
  form.beTrigger = spec.breakEven?.trigger ?? '';
  form.beOffset = spec.breakEven && spec.breakEven.offset !== '0' ? spec.breakEven.offset : '';
  return form;
}

/** The two forms say the same protection (a template's, or one the trader edited). */
export function sameForm(a: ProtectionForm, b: ProtectionForm): boolean {
  const t = (s: string) => s.trim();
  const dist = (x: DistanceForm, y: DistanceForm) =>
    t(x.value) === t(y.value) && (t(x.value) === '' || x.by === y.by);
  return (
    dist(a.stop, b.stop) &&
    dist(a.target, b.target) &&
    t(a.trailStep) === t(b.trailStep) &&
    t(a.beTrigger) === t(b.beTrigger) &&
    (t(a.beOffset) || '0') === (t(b.beOffset) || '0')
  );
}

// The contract's decimal texts: > 0, at most 7 whole digits and 4 decimals; the offset may be signed.
const POSITIVE = /^(?:0|[1-9]\d{0,6})(?:\.\d{1,4})?$/;
const SIGNED = /^-?(?:0|[1-9]\d{0,6})(?:\.\d{1,4})?$/;

function positive(text: string, what: string, field: ProtectionField, out: ProtectionProblem[]): boolean {
  if (!POSITIVE.test(text)) {
    out.push({ field, message: `${what} must be a number, at most 4 decimals (${text} is not)` });
    return false;
  }
  if (!(Number(text) > 0)) {
    out.push({ field, message: `${what} must be more than 0` });
    return false;
  }
  return true;
}

/**
 * The contract's ProtectionSpec from the form, or every problem in words (empty fields are left out;
 * a stop, a target or both are needed; trailing and break-even need a stop).
 */
export function specOfForm(form: ProtectionForm): SpecResult {
  const problems: ProtectionProblem[] = [];
  const spec: ProtectionSpec = {};
  const stop = form.stop.value.trim();
  const target = form.target.value.trim();
  const trail = form.trailStep.trim();
  const trigger = form.beTrigger.trim();
  const offset = form.beOffset.trim();
  if (stop !== '' && positive(stop, 'The stop', 'stop', problems))
    spec.stop = { by: form.stop.by, value: stop };
  if (target !== '' && positive(target, 'The target', 'target', problems))
    spec.target = { by: form.target.by, value: target };
  if (trail !== '' && positive(trail, 'The trail step', 'trailStep', problems)) spec.trailStep = trail;
  if (trigger === '' && offset !== '')
    problems.push({
      field: 'beTrigger',
      message: 'A break-even offset needs a trigger: set both or neither',
    });
  if (trigger !== '' && positive(trigger, 'The break-even trigger', 'beTrigger', problems)) {
    if (offset !== '' && !SIGNED.test(offset))
      problems.push({
        field: 'beOffset',
        message: `The break-even offset must be a number, at most 4 decimals (${offset} is not)`,
      });
    else spec.breakEven = { trigger, offset: offset === '' ? '0' : offset };
  }
  if (problems.length > 0) return { ok: false, problems };
  if (!spec.stop && !spec.target)
    return {
      ok: false,
      problems: [{ field: 'spec', message: 'A protection needs a stop, a target or both' }],
    };
  if (!spec.stop && (spec.trailStep !== undefined || spec.breakEven !== undefined))
    return {
      ok: false,
      problems: [{ field: 'stop', message: 'Trailing and break-even move a stop: set a stop too' }],
    };
  return { ok: true, spec };
}

/** `SL 10 pts · TG 20 pts · trail 2 pts · BE 10+1`: a spec in a few words (the confirm line, alerts). */
export function specWords(spec: ProtectionSpec): string {
  const dist = (d: { by: ProtectionBy; value: string }) =>
    d.by === 'price' ? `@ ${d.value}` : d.by === 'percent' ? `${d.value} %` : `${d.value} pts`;
  return [
    spec.stop && `SL ${dist(spec.stop)}`,
    spec.target && `TG ${dist(spec.target)}`,
    spec.trailStep && `trail ${spec.trailStep} pts`,
    spec.breakEven &&
      `BE at +${spec.breakEven.trigger} pts${spec.breakEven.offset !== '0' ? ` → entry ${signed(spec.breakEven.offset)}` : ' → entry'}`,
  ]
    .filter(Boolean)
    .join(' · ');
}
const signed = (t: string) => (t.startsWith('-') ? t : `+${t}`);

// ---- the levels, estimated from the ticket's price ----

export interface LevelEstimate {
  stop?: number;
  target?: number;
  /** Why a leg would be refused at this price (wrong side, off the tick, at or below 0), in words. */
  problems: string[];
}

/** +1 when the leg lies above the entry (a short's stop, a long's target), −1 below. */
const sideOf = (action: Action, leg: 'stop' | 'target'): 1 | -1 =>
  (action === 'BUY') === (leg === 'target') ? 1 : -1;

const LEG_WORD = { stop: 'stop', target: 'target' } as const;

/**
 * Where the core would rest the legs for an entry filled at `price` on `tick`: points or percent from
 * the price, landed on the tick toward the fill (a stop never further than asked, a target never
 * further than the market must go); a price as it is. Undefined without a usable price or tick.
 */
export function estimateLevels(
  action: Action,
  price: number | undefined,
  tick: number | undefined,
  spec: ProtectionSpec,
): LevelEstimate | undefined {
  if (price === undefined || !(price > 0) || tick === undefined || !(tick > 0)) return undefined;
  const p = parseDecimal(price);
  const step = parseDecimal(tick);
  if (!p || !step) return undefined;
  const out: LevelEstimate = { problems: [] };
  for (const leg of ['stop', 'target'] as const) {
    const d = spec[leg];
    if (!d) continue;
    const value = parseDecimal(d.value);
    if (!value) continue;
    const side = sideOf(action, leg);
    let at: Dec;
    if (d.by === 'price') {
      if (!isMultipleOf(value, step)) {
        out.problems.push(`The ${LEG_WORD[leg]} price ${d.value} is not on the tick ${tick}`);
        continue;
      }
      at = value;
    } else {
      const distance = d.by === 'points' ? value : divDec(mulDec(p, value), decOf(100), 8);
      const raw = addDec(p, side === 1 ? distance : mulDec(distance, decOf(-1)));
      at = roundToStep(raw, step, side === 1 ? 'floor' : 'ceil');
    }
    if (compareDec(at, ZERO) <= 0) {
      out.problems.push(`The ${LEG_WORD[leg]} would be at or below 0`);
      continue;
    }
    if (compareDec(at, p) !== side) {
      out.problems.push(
        `A ${action} ${LEG_WORD[leg]} must be ${side === 1 ? 'above' : 'below'} the entry (${toNumber(at)} is not)`,
      );
    }
    out[leg] = toNumber(at);
  }
  return out;
}

// ---- who holds the bracket ----

/** core: OrderDesk holds the one-cancels-other; gtt: one GTT OCO rests at the gateway. */
export type ProtectionKind = BracketView['kind'];

/**
 * The entry may rest its protection as one GTT OCO: a CNC or NRML BUY (the GTT's stoploss lies
 * below its target, so it closes a long only, and outlives the day) with both a stop and a target.
 * The same rule the core holds (gttUnfit); anything else is protected core-held.
 */
export function gttFits(product: string, action: Action, spec: ProtectionSpec | undefined): boolean {
  return (product === 'CNC' || product === 'NRML') && action === 'BUY' && !!spec?.stop && !!spec.target;
}

// ---- templates and the segment's default ----

/** The template a segment's new symbols pick, by the exchange; undefined when the segment has none. */
export function defaultTemplateFor(
  exchange: string,
  settings: { templates: readonly ProtectionTemplate[]; defaults: ProtectionSettings['defaults'] },
): ProtectionTemplate | undefined {
  const segment = segmentOf(exchange);
  const name = segment ? settings.defaults[segment] : undefined;
  return name === undefined ? undefined : settings.templates.find((t) => t.name === name);
}

/** Why the hotkey found no default for `exchange`'s segment, in words. */
export function noDefaultWords(exchange: string): string {
  const segment: TicketSegment | undefined = segmentOf(exchange);
  return segment
    ? `No default protection for ${SEGMENT_LABELS[segment]}: pick one in Settings ▸ Protection. Nothing sent`
    : `${exchange} is quote-only: no protection and nothing sent`;
}
