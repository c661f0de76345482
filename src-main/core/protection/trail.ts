// How a bracket's stop follows the price: in whole steps of the favourable move since the fill
// (the best price seen, so a pull-back never takes a step back), and to the entry plus an offset
// once the break-even trigger is reached. The stop only ever moves in the position's favour, and
// only to a price the market has not already crossed.
import type { ProtectionSpec } from '../../contract/index.js';
import {
  addDec,
  compareDec,
  divDec,
  exactOf,
  mulDec,
  roundToStep,
  toNumber,
  type Dec,
} from '../../shared/decimal.js';
import type { EntryFill } from './levels.js';

export interface TrailInput {
  fill: EntryFill;
  spec: Pick<ProtectionSpec, 'trailStep' | 'breakEven'>;
  /** The stop's trigger when it was placed. */
  initialStop: number;
  /** Where it rests now. */
  currentStop: number;
  /** The best price since the fill: the highest for a BUY entry, the lowest for a SELL. */
  best: number;
  /** The last traded price: a stop is never moved to or past it (it would trigger at once). */
  ltp: number;
}

/** The stop's new trigger, or undefined when it stays where it is. */
export function nextStop(t: TrailInput): number | undefined {
  const sign = exactOf(t.fill.action === 'BUY' ? 1 : -1);
  const fill = exactOf(t.fill.price);
  const tick = exactOf(t.fill.tick);
  /** Favourable move since the fill, in points (≥ 0 when in profit). */
  const gain = mulDec(addDec(exactOf(t.best), mulDec(fill, exactOf(-1))), sign);
  const current = exactOf(t.currentStop);
  /** `a` is further in the position's favour than `b`. */
  const better = (a: Dec, b: Dec) => compareDec(mulDec(a, sign), mulDec(b, sign)) > 0;
  let wanted = current;

  if (t.spec.trailStep !== undefined && compareDec(gain, exactOf(0)) > 0) {
    const step = exactOf(Number(t.spec.trailStep));
    const steps = divDec(gain, step, 0, 'floor');
    // On the tick, short of the full step (a step that is not a whole number of ticks).
    const moved = roundToStep(
      addDec(exactOf(t.initialStop), mulDec(mulDec(steps, step), sign)),
      tick,
      t.fill.action === 'BUY' ? 'floor' : 'ceil',
    );
    if (better(moved, wanted)) wanted = moved;
  }
  const be = t.spec.breakEven;
  if (be !== undefined && compareDec(gain, exactOf(Number(be.trigger))) >= 0) {
    const at = exactOf(breakEvenLevel(t.fill, be.offset));
    if (better(at, wanted)) wanted = at;
  }
  if (!better(wanted, current)) return undefined;
  // A stop at or past the last price would fire at once: keep it short of the market.
  if (!better(exactOf(t.ltp), wanted)) return undefined;
  return toNumber(wanted);
}

/** The entry plus the offset, on the tick at or beyond it (never short of covering the offset). */
export function breakEvenLevel(fill: EntryFill, offset: string): number {
  const sign = exactOf(fill.action === 'BUY' ? 1 : -1);
  return toNumber(
    roundToStep(
      addDec(exactOf(fill.price), mulDec(exactOf(Number(offset)), sign)),
      exactOf(fill.tick),
      fill.action === 'BUY' ? 'ceil' : 'floor',
    ),
  );
}
