// The embedded paper gateway the stress suites trade on, as the core tests build it (test/support),
// behind the fault proxy, with a capital large enough that a thousand orders never run out of funds.
import { engineExtension } from '../../src-main/paper/engine/extension.js';
import type { PaperTradingEngine } from '../../src-main/paper/engine/trading-engine.js';
import type { Paper } from '../../test/support/core-harness.js';
import { startFaultProxy } from '../../test/support/fault-proxy.js';
import { startTestGateway, tickRound } from '../../test/support/paper-gateway.js';

/** ₹1,000 crore: funds never the reason an order is refused. */
const CAPITAL = 1e10;

export async function startStressPaper(): Promise<Paper> {
  let engine: PaperTradingEngine | undefined;
  const gw = await startTestGateway({
    extensions: [engineExtension({ capital: CAPITAL, onEngine: (e) => (engine = e) })],
  });
  if (!engine) throw new Error('the engine extension did not hand over its engine');
  const proxy = await startFaultProxy(gw.url);
  const withEngine = { ...gw, engine };
  return {
    gw: withEngine,
    proxy,
    engine: () => withEngine.engine,
    inst: (exchange, symbol) => gw.instrument(exchange, symbol),
    onTick: tickRound,
    ltp: (i) => gw.gateway.market.lastPrice(i),
    async stop() {
      await proxy.stop();
      await gw.stop();
    },
  };
}
