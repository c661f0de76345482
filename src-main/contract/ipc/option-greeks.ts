// The option chain's greeks (market.optionGreeks): the shown contracts in, one row of IV and greeks
// per contract out. The core reads them in batches from the gateway's multioptiongreeks; a contract
// the gateway could not price comes back with nulls, so the chain shows a dash for it.
import { z } from 'zod';
import { EXCHANGES, oneOf, symbolText } from '../gateway/index.js';

/** Contracts one request may ask for: a 20-strike-each-side window of calls and puts, with room. */
export const OPTION_GREEKS_MAX = 200;

export const OptionGreeksInput = z.strictObject({
  symbols: z
    .array(z.strictObject({ symbol: symbolText(), exchange: oneOf('exchange', EXCHANGES) }))
    .min(1, 'symbols must hold at least one option')
    .max(OPTION_GREEKS_MAX, `symbols may hold at most ${OPTION_GREEKS_MAX} options`),
});
export type OptionGreeksInput = z.infer<typeof OptionGreeksInput>;

const greek = z.number().nullable();

/** One contract's greeks as the gateway gave them: IV in percent, theta per day, vega per 1 % IV. */
export const LegGreeks = z.object({
  symbol: z.string(),
  exchange: z.string(),
  iv: greek,
  delta: greek,
  gamma: greek,
  theta: greek,
  vega: greek,
});
export type LegGreeks = z.infer<typeof LegGreeks>;

export const OptionGreeksView = z.object({
  greeks: z.array(LegGreeks),
  /** Contracts the gateway answered with an error (their rows are all null). */
  failed: z.number().int().nonnegative(),
});
export type OptionGreeksView = z.infer<typeof OptionGreeksView>;
