// The strategy builder's numbers in words and figures, en-IN: greeks with a fixed number of decimals,
// rupee figures that may be unlimited, breakevens at the tick, a probability, a leg state's word.
import type { StrategyLegState, StrategyState } from '@contract';
import { DASH, formatMoney, formatPrice } from '@shared/format.js';

const FIXED = new Map<string, Intl.NumberFormat>();

/** A figure with `decimals` decimals, en-IN grouped, `+` when asked (zero unsigned): `-1,234.5`. */
export function figure(value: number | null | undefined, decimals: number, signed = false): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const key = `${decimals}:${signed}`;
  let f = FIXED.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-IN', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      signDisplay: signed ? 'exceptZero' : 'auto',
    });
    FIXED.set(key, f);
  }
  return f.format(Math.abs(value) < 0.5 * 10 ** -decimals ? 0 : value);
}

/** Rupees at two decimals, or "Unlimited". */
export function rupeesOrUnlimited(value: number | 'unlimited' | undefined): string {
  if (value === undefined) return DASH;
  return value === 'unlimited' ? 'Unlimited' : formatMoney(value.toFixed(2));
}

/** Rupees at two decimals from a float (the payoff's), signed when asked. */
export function rupees(value: number | undefined, signed = false): string {
  return value === undefined || !Number.isFinite(value) ? DASH : formatMoney(value.toFixed(2), { signed });
}

/** Breakevens, ascending, each at the tick: `23,812.40 · 24,187.60`; "None" without one. */
export function breakevenText(values: readonly number[] | undefined, tick = 0.05): string {
  if (!values) return DASH;
  return values.length === 0 ? 'None' : values.map((v) => formatPrice(v, tick)).join(' · ');
}

/** A probability 0–1 as `62.4 %`. */
export function percentText(p: number | null | undefined): string {
  return p === null || p === undefined || !Number.isFinite(p) ? DASH : `${figure(p * 100, 1)} %`;
}

/** An IV fraction as points: `14.2`. */
export const ivText = (iv: number | null | undefined): string =>
  iv === null || iv === undefined ? DASH : figure(iv * 100, 1);

export const LEG_STATE_WORDS: Record<StrategyLegState, string> = {
  waiting: 'Waiting',
  sending: 'Sending…',
  sent: 'Sent',
  refused: 'Refused',
  unknown: 'No answer',
  closed: 'Closed (rolled)',
};

export const STRATEGY_STATE_WORDS: Record<StrategyState, string> = {
  sending: 'Sending',
  partial: 'Partly sent: a leg was refused or got no answer',
  open: 'Open: every leg sent',
  exiting: 'Exiting',
  closed: 'Closed',
  exitFailed: 'An exit was refused: exit by hand',
};

/** A leg state's tone for its chip. */
export function legTone(state: StrategyLegState): 'ok' | 'warn' | 'bad' | 'muted' {
  if (state === 'sent') return 'ok';
  if (state === 'refused') return 'bad';
  if (state === 'unknown' || state === 'sending') return 'warn';
  return 'muted';
}
