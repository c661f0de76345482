// The gateway's margin answer as the ticket reads it: rupees as decimal text, rounded up to the paisa
// (a requirement shown a paisa short could let an order through that the broker refuses), and who
// worked it out (the embedded paper gateway or the profile's own).
import type { MarginEstimate, MarginResponse, Profile } from '../../contract/index.js';
import { decimalsOf, toScaled } from '../../shared/decimal.js';

/** A rupee figure as text with two decimals, rounded up (towards +∞) to the paisa. */
export function rupeesUp(x: number): string {
  if (!Number.isFinite(x)) return '0.00';
  const places = Math.max(2, decimalsOf(x));
  const scaled = toScaled(x, places);
  const per = 10n ** BigInt(places - 2);
  let paise = scaled / per;
  if (scaled % per !== 0n && scaled > 0n) paise += 1n;
  const negative = paise < 0n;
  const abs = negative ? -paise : paise;
  const text = `${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

export function toMarginEstimate(data: MarginResponse['data'], kind: Profile['kind']): MarginEstimate {
  return {
    total: rupeesUp(data.total_margin_required),
    span: rupeesUp(data.span_margin),
    exposure: rupeesUp(data.exposure_margin),
    ...(data.margin_benefit !== undefined ? { benefit: rupeesUp(data.margin_benefit) } : {}),
    source: kind === 'paper' ? 'paper' : 'gateway',
  };
}
