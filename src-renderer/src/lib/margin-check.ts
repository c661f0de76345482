// The ticket's margin figure and the funds check before sending, pure. On a gateway profile the figure
// is the gateway's own (`orders.margin`), labelled with its source, and "margin unknown" when the
// gateway cannot answer: never the paper gateway's leverage table, which says nothing about a broker's
// SPAN and exposure margins. On the paper profile it is the paper leverage estimate (the same table
// the paper gateway blocks margin by). The check compares the figure with the available cash and says
// in words when the order needs more, or that it could not be checked.
import type { MarginEstimate, MarginSource, Profile } from '@contract';
import { compareDec, mulDec, parseDecimal, toPlainText, type Dec } from '@shared/decimal.js';
import { formatMoney } from '@shared/format.js';

export type ProfileKind = Profile['kind'];

/** The margin figure the ticket shows and what it stands on. */
export type MarginShown =
  /** Worked out by the gateway for exactly this order. */
  | { kind: 'gateway'; total: Dec; source: MarginSource }
  /** The value ÷ the paper gateway's leverage (the paper profile only); one order's leverage, if one. */
  | { kind: 'paper_leverage'; total: Dec; leverage?: number | undefined }
  /** Asked of the gateway, no answer yet. */
  | { kind: 'asking' }
  /** The gateway could not answer (it has no margin operation, or the call failed): why. */
  | { kind: 'unknown'; reason: string };

export interface MarginInputs {
  /** The active profile's kind; undefined until the session is read (then never the paper table). */
  profileKind: ProfileKind | undefined;
  /** The paper leverage estimate (lib/ticket-rules, lib/basket-rules), when value and price are known. */
  leverage?: { margin: Dec; leverage?: number | undefined } | undefined;
  /** The gateway's answer for exactly this order. */
  answer?: MarginEstimate | undefined;
  /** An ask for this order is waiting (the pause after typing, or the gateway). */
  asking: boolean;
  /** Why the gateway's last ask failed. */
  problem?: string | undefined;
  /** The order is complete enough to ask about. */
  complete: boolean;
}

/** Only a gateway profile asks its gateway; paper uses its leverage table. */
export function asksGateway(kind: ProfileKind | undefined): boolean {
  return kind === 'gateway';
}

/** The figure to show; undefined while the order is not complete enough to have one. */
export function marginShown(i: MarginInputs): MarginShown | undefined {
  if (i.profileKind === 'paper')
    return i.leverage
      ? { kind: 'paper_leverage', total: i.leverage.margin, leverage: i.leverage.leverage }
      : undefined;
  if (!i.complete) return undefined;
  // Until the session says which profile this is, no table stands in for a gateway's figure.
  if (i.profileKind === undefined) return { kind: 'unknown', reason: 'the profile is not known yet' };
  const total = i.answer ? parseDecimal(i.answer.total) : undefined;
  if (i.answer && total) return { kind: 'gateway', total, source: i.answer.source };
  if (i.asking) return { kind: 'asking' };
  if (i.problem) return { kind: 'unknown', reason: i.problem };
  return { kind: 'asking' };
}

export interface MarginWords {
  /** "Margin ₹1,810.60", "Margin unknown". */
  figure: string;
  /** What it stands on, shown small beside it: "(gateway)", "(paper leverage)". */
  note: string;
  /** The longer story, for the title. */
  title: string;
}

const SOURCE_NOTE: Record<MarginSource, string> = { gateway: 'gateway', paper: 'paper gateway' };

export function marginWords(shown: MarginShown): MarginWords {
  switch (shown.kind) {
    case 'gateway':
      return {
        figure: `Margin ${formatMoney(toPlainText(shown.total))}`,
        note: `(${SOURCE_NOTE[shown.source]})`,
        title: `The ${SOURCE_NOTE[shown.source]}'s margin for this order`,
      };
    case 'paper_leverage':
      return {
        figure: `Margin ≈ ${formatMoney(toPlainText(shown.total))}`,
        note: '(paper leverage)',
        title:
          shown.leverage === undefined
            ? "Each order's value ÷ the paper gateway's leverage for its product (MIS 5×, CNC 1×, futures 10×, options 1×)"
            : `The order's value ÷ ${shown.leverage}×, the paper gateway's leverage for this product`,
      };
    case 'asking':
      return { figure: 'Margin …', note: '(asking the gateway)', title: 'Asking the gateway for the margin' };
    case 'unknown':
      return {
        figure: 'Margin unknown',
        note: '',
        title: `The gateway did not give the margin: ${shown.reason}`,
      };
  }
}

/** A market order may fill away from the last price its value was taken at. */
const FILL_ALLOWANCE = parseDecimal('1.05') as Dec;

/**
 * An amount the order's margin cannot exceed, known without asking the gateway: its full value (a
 * buy blocks at most what it costs; a sell of shares or futures at most what it is worth), with 5 %
 * for a market order's fill. None for a sold option: its margin is the exchange's SPAN on the
 * underlying, which can be many times the premium.
 */
export function marginCeiling(value: Dec | undefined, sellsOption: boolean): Dec | undefined {
  return value && !sellsOption ? mulDec(value, FILL_ALLOWANCE) : undefined;
}

/** True when the order's margin, whatever the gateway says, fits the available cash. */
export function surelyFits(ceiling: Dec | undefined, available: Dec | undefined): boolean {
  return !!ceiling && !!available && compareDec(ceiling, available) <= 0;
}

export type FundsCheck =
  | { kind: 'fits' }
  /** The order needs more margin than is available: the trader must say to send it anyway. */
  | { kind: 'short'; message: string }
  /** Margin or funds unknown: said, not blocked. */
  | { kind: 'unchecked'; message: string };

/** The margin the order needs against the available cash (funds' availablecash). */
export function checkFunds(
  shown: MarginShown | undefined,
  available: Dec | undefined,
  fundsProblem?: string,
  /** What is being sent: "order" or "basket". */
  what = 'order',
): FundsCheck {
  if (!shown || shown.kind === 'asking' || shown.kind === 'unknown') {
    const why = shown?.kind === 'unknown' ? ` (${shown.reason})` : '';
    return {
      kind: 'unchecked',
      message: `The margin this ${what} needs is unknown${why}: not checked against the available funds`,
    };
  }
  const need = formatMoney(toPlainText(shown.total));
  if (!available) {
    const why = fundsProblem ? ` (${fundsProblem})` : '';
    return {
      kind: 'unchecked',
      message: `The available funds are unknown${why}: the ${need} of margin was not checked against them`,
    };
  }
  if (compareDec(shown.total, available) <= 0) return { kind: 'fits' };
  return {
    kind: 'short',
    message: `This ${what} needs about ${need} of margin; ${formatMoney(toPlainText(available))} is available`,
  };
}
