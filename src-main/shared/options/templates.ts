// The strategy builder's ready-made strategies, as strike steps from the at-the-money strike, and
// their placement on a chain's strike list.
import type { LegSide, OptionKind, StrategyTemplate, TemplateLeg } from './types.js';

const leg = (kind: OptionKind, side: LegSide, offset: number, expiry: 0 | 1 = 0): TemplateLeg => ({
  kind,
  side,
  offset,
  expiry,
  lots: 1,
});

export const STRATEGY_TEMPLATES: readonly StrategyTemplate[] = [
  { id: 'long-straddle', name: 'Long straddle', legs: [leg('CE', 'BUY', 0), leg('PE', 'BUY', 0)] },
  { id: 'short-straddle', name: 'Short straddle', legs: [leg('CE', 'SELL', 0), leg('PE', 'SELL', 0)] },
  { id: 'long-strangle', name: 'Long strangle', legs: [leg('CE', 'BUY', 2), leg('PE', 'BUY', -2)] },
  { id: 'short-strangle', name: 'Short strangle', legs: [leg('CE', 'SELL', 2), leg('PE', 'SELL', -2)] },
  { id: 'bull-call-spread', name: 'Bull call spread', legs: [leg('CE', 'BUY', 0), leg('CE', 'SELL', 2)] },
  { id: 'bear-call-spread', name: 'Bear call spread', legs: [leg('CE', 'SELL', 0), leg('CE', 'BUY', 2)] },
  { id: 'bull-put-spread', name: 'Bull put spread', legs: [leg('PE', 'SELL', 0), leg('PE', 'BUY', -2)] },
  { id: 'bear-put-spread', name: 'Bear put spread', legs: [leg('PE', 'BUY', 0), leg('PE', 'SELL', -2)] },
  {
    id: 'iron-condor',
    name: 'Iron condor',
    legs: [leg('PE', 'SELL', -2), leg('PE', 'BUY', -4), leg('CE', 'SELL', 2), leg('CE', 'BUY', 4)],
  },
  {
    id: 'iron-fly',
    name: 'Iron fly',
    legs: [leg('CE', 'SELL', 0), leg('PE', 'SELL', 0), leg('CE', 'BUY', 3), leg('PE', 'BUY', -3)],
  },
  { id: 'calendar', name: 'Calendar', legs: [leg('CE', 'SELL', 0, 0), leg('CE', 'BUY', 0, 1)] },
];

/** A template's leg placed on the chain: `strikeIndex` into the strike list given. */
export interface PlacedLeg {
  kind: OptionKind;
  side: LegSide;
  strikeIndex: number;
  expiry: 0 | 1;
  lots: number;
}

const strikesWord = (n: number): string => (n === 1 ? '1 strike' : `${n} strikes`);

/**
 * The template's legs on `strikes` (ascending) around `strikes[atmIndex]`, or an error in words when
 * the list is too short on either side for the template's offsets.
 */
export function placeTemplate(
  t: StrategyTemplate,
  strikes: readonly number[],
  atmIndex: number,
): { legs: PlacedLeg[] } | { error: string } {
  if (strikes.length === 0) return { error: `${t.name} needs a strike list; the chain lists none` };
  if (!Number.isInteger(atmIndex) || atmIndex < 0 || atmIndex >= strikes.length)
    return { error: `${t.name} needs an at-the-money strike in the chain's list` };
  let above = 0;
  let below = 0;
  for (const l of t.legs) {
    above = Math.max(above, l.offset);
    below = Math.max(below, -l.offset);
  }
  const haveAbove = strikes.length - 1 - atmIndex;
  const haveBelow = atmIndex;
  const shortAbove = above > haveAbove;
  const shortBelow = below > haveBelow;
  if (shortAbove && shortBelow)
    return {
      error: `${t.name} needs ${strikesWord(above)} above the money and ${below} below; the chain lists ${haveAbove} above and ${haveBelow} below`,
    };
  if (shortAbove)
    return { error: `${t.name} needs ${strikesWord(above)} above the money; the chain lists ${haveAbove}` };
  if (shortBelow)
    return { error: `${t.name} needs ${strikesWord(below)} below the money; the chain lists ${haveBelow}` };
  return {
    legs: t.legs.map((l) => ({
      kind: l.kind,
      side: l.side,
      strikeIndex: atmIndex + l.offset,
      expiry: l.expiry,
      lots: l.lots,
    })),
  };
}
