// Last prices for position MTM: one `multiquotes` call where the gateway offers it (the client
// remembers a 404 and stops asking), else `depth`, a few symbols per round in rotation so that MTM
// never eats the rate budget that orders need.
import { QuoteData } from '../../contract/index.js';
import type { GatewayClient } from '../../gateway/index.js';
import { quoteKey } from './position-diff.js';

export interface Instrument {
  symbol: string;
  exchange: string;
}

export interface LtpSource {
  /** Known last prices after this round (earlier rounds' values fill the gaps). */
  refresh(instruments: readonly Instrument[]): Promise<Map<string, number>>;
  /** Last prices known so far, without a request. */
  known(): Map<string, number>;
}

export function createLtpSource(
  client: Pick<GatewayClient, 'multiquotes' | 'depth'>,
  options: { depthPerRound?: number } = {},
): LtpSource {
  const depthPerRound = options.depthPerRound ?? 3;
  const ltps = new Map<string, number>();
  let multiquotesOffered = true;
  let cursor = 0;

  async function viaDepth(list: readonly Instrument[]): Promise<void> {
    const n = Math.min(depthPerRound, list.length);
    for (let i = 0; i < n; i++) {
      const inst = list[(cursor + i) % list.length];
      if (!inst) continue;
      const r = await client.depth({ symbol: inst.symbol, exchange: inst.exchange });
      if (r.ok && r.value.data.ltp > 0) ltps.set(quoteKey(inst), r.value.data.ltp);
    }
    cursor = (cursor + n) % Math.max(1, list.length);
  }

  return {
    known: () => new Map(ltps),
    async refresh(instruments) {
      const unique = [...new Map(instruments.map((i) => [quoteKey(i), i])).values()];
      if (unique.length === 0) return new Map(ltps);
      if (multiquotesOffered) {
        const r = await client.multiquotes({
          symbols: unique.slice(0, 500).map((i) => ({ symbol: i.symbol, exchange: i.exchange })),
        });
        if (r.ok) {
          for (const item of r.value.results) {
            // Both result shapes are loose objects, so `in` cannot tell them apart: parse the quote.
            const quote = QuoteData.safeParse(item.data);
            if (quote.success && quote.data.ltp > 0) ltps.set(quoteKey(item), quote.data.ltp);
          }
          return new Map(ltps);
        }
        if (r.error.kind !== 'not_offered') return new Map(ltps);
        multiquotesOffered = false;
      }
      await viaDepth(unique);
      return new Map(ltps);
    },
  };
}
