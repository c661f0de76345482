// market.optionGreeks: the option chain's IV and greeks, read after its quotes in batches of the
// gateway's multioptiongreeks (50 a call). A batch the gateway fails leaves its contracts' greeks
// null, so the chain shows dashes; only when every batch fails is the read an error. A gateway that
// does not offer multioptiongreeks is asked optiongreeks one contract at a time, for a few only (it
// is rate-limited to 30 a minute upstream).
import type {
  IpcResult,
  LegGreeks,
  MultiOptionGreeksResponse,
  OptionGreeksInput,
  OptionGreeksResponse,
  OptionGreeksView,
} from '../../contract/index.js';
import type { GatewayClient, GatewayResult } from '../../gateway/index.js';
import { fromGateway, okResult } from './results.js';

/** multioptiongreeks takes at most 50 symbols a call. */
export const GREEKS_BATCH = 50;
/** Contracts asked one by one through optiongreeks when multioptiongreeks is not offered. */
export const SINGLE_GREEKS_MAX = 6;

type Symbols = OptionGreeksInput['symbols'];
type Reader = Pick<GatewayClient, 'multioptiongreeks' | 'optiongreeks'>;

const none = (s: Symbols[number]): LegGreeks => ({
  symbol: s.symbol,
  exchange: s.exchange,
  iv: null,
  delta: null,
  gamma: null,
  theta: null,
  vega: null,
});

const finite = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

function fromAnswer(a: OptionGreeksResponse): LegGreeks {
  return {
    symbol: a.symbol,
    exchange: a.exchange,
    iv: finite(a.implied_volatility),
    delta: finite(a.greeks.delta),
    gamma: finite(a.greeks.gamma),
    theta: finite(a.greeks.theta),
    vega: finite(a.greeks.vega),
  };
}

const keyOf = (s: { symbol: string; exchange: string }) => `${s.exchange}:${s.symbol}`;

export async function readOptionGreeks(
  client: Reader,
  input: OptionGreeksInput,
): Promise<IpcResult<OptionGreeksView>> {
  const got = new Map<string, LegGreeks>();
  let failed = 0;
  let firstError: GatewayResult<never> | undefined;
  let answered = false;
  for (let at = 0; at < input.symbols.length; at += GREEKS_BATCH) {
    const batch = input.symbols.slice(at, at + GREEKS_BATCH);
    const r = await client.multioptiongreeks({ symbols: batch });
    if (!r.ok) {
      if (r.error.kind === 'not_offered') return readOneByOne(client, input.symbols);
      firstError ??= r;
      failed += batch.length;
      continue;
    }
    answered = true;
    failed += take(r.value, got);
  }
  if (!answered && firstError) return fromGateway(firstError);
  return okResult({ greeks: input.symbols.map((s) => got.get(keyOf(s)) ?? none(s)), failed });
}

/** Puts each priced contract in `got`; answers how many the gateway said it could not price. */
function take(answer: MultiOptionGreeksResponse, got: Map<string, LegGreeks>): number {
  let failed = 0;
  for (const item of answer.data) {
    if (item.status === 'success') got.set(keyOf(item), fromAnswer(item as OptionGreeksResponse));
    else failed++;
  }
  return failed;
}

async function readOneByOne(client: Reader, symbols: Symbols): Promise<IpcResult<OptionGreeksView>> {
  const greeks: LegGreeks[] = [];
  let failed = 0;
  for (const [i, s] of symbols.entries()) {
    const r = i < SINGLE_GREEKS_MAX ? await client.optiongreeks(s) : undefined;
    if (r?.ok) greeks.push(fromAnswer(r.value));
    else {
      greeks.push(none(s));
      failed++;
    }
  }
  return okResult({ greeks, failed });
}
