// Where a bracket's stop and target rest, from the entry's fill price: exact decimals, on the
// instrument's tick, rounded toward the fill (a stop never further than the trader asked, a target
// never more than the market must give), and refused when on the wrong side of the fill.
import type { ProtectionDistance, ProtectionSpec } from '../../contract/index.js';
import {
  addDec,
  compareDec,
  divDec,
  exactOf,
  isMultipleOf,
  mulDec,
  roundToStep,
  toNumber,
  type Dec,
  type Rounding,
} from '../../shared/decimal.js';

export type EntryAction = 'BUY' | 'SELL';

export interface EntryFill {
  action: EntryAction;
  /** The entry's average fill price (may be off the tick after partial fills). */
  price: number;
  tick: number;
}

export interface Levels {
  /** The stop's trigger price (an SL-M rests there). */
  stop?: number;
  target?: number;
}

export type LevelsResult = { ok: true; levels: Levels } | { ok: false; message: string };

type Leg = 'stop' | 'target';

/** +1 when the leg lies above the fill (a short's stop, a long's target), −1 below. */
function sideOf(action: EntryAction, leg: Leg): 1 | -1 {
  return (action === 'BUY') === (leg === 'target') ? 1 : -1;
}

/** Rounded toward the fill: down for a level above it, up for one below. */
const towardFill = (side: 1 | -1): Rounding => (side === 1 ? 'floor' : 'ceil');

function level(
  fill: EntryFill,
  leg: Leg,
  d: ProtectionDistance,
): { ok: true; at: Dec } | { ok: false; message: string } {
  const price = exactOf(fill.price);
  const tick = exactOf(fill.tick);
  const value = exactOf(Number(d.value));
  const side = sideOf(fill.action, leg);
  let at: Dec;
  if (d.by === 'price') {
    if (!isMultipleOf(value, tick))
      return { ok: false, message: `the ${leg} ${d.value} is not a multiple of the tick ${fill.tick}` };
    at = value;
  } else {
    const distance = d.by === 'points' ? value : divDec(mulDec(price, value), exactOf(100), 8);
    at = roundToStep(
      addDec(price, side === 1 ? distance : mulDec(distance, exactOf(-1))),
      tick,
      towardFill(side),
    );
  }
  const where = compareDec(at, price);
  if (where !== side) {
    const should = side === 1 ? 'above' : 'below';
    return {
      ok: false,
      message: `the ${leg} ${toNumber(at)} of a ${fill.action} must be ${should} its fill ${fill.price}`,
    };
  }
  if (compareDec(at, exactOf(0)) <= 0) return { ok: false, message: `the ${leg} would be at or below 0` };
  return { ok: true, at };
}

/** The stop's and target's prices for this fill, or why the protection cannot rest there. */
export function protectiveLevels(fill: EntryFill, spec: ProtectionSpec): LevelsResult {
  const levels: Levels = {};
  for (const leg of ['stop', 'target'] as const) {
    const d = spec[leg];
    if (!d) continue;
    const r = level(fill, leg, d);
    if (!r.ok) return r;
    levels[leg] = toNumber(r.at);
  }
  return { ok: true, levels };
}
