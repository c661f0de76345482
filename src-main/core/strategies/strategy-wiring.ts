// The core's strategies wired to the rest of the core: their orders through the router's own
// channels (journal first, risk, the guard, the rate budget), the active profile's books as the
// watcher last read them, stop/target and refused exits as sticky OS notifications, views as
// `strategies.list` events, prices from the market watch.
import { join } from 'node:path';
import type { Clock } from '../../gateway/index.js';
import type { Journal } from '../journal/index.js';
import { createPriceSubscriptions, type PriceMarket } from '../market/price-subscriptions.js';
import type { Logger, Notifier } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import type { Router } from '../router/router.js';
import type { Session } from '../router/session.js';
import { createStrategyStore } from './strategy-store.js';
import { createStrategyService, type StrategyCore } from './strategy-service.js';

export interface StrategyWiring {
  /** The router, once made (called only when strategies act). */
  router(): Router;
  session(): Session | undefined;
  pollNow(): Promise<void>;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  notifier: Notifier;
  emit: Emit;
  market: PriceMarket;
  journal: Pick<Journal, 'get'>;
}

export function wireStrategies(w: StrategyWiring): StrategyCore {
  return createStrategyService({
    invoke: (channel, input) => w.router().invoke(channel, input as never),
    activeProfileId: () => w.session()?.profile.id,
    books(profileId) {
      const s = w.session();
      if (s?.profile.id !== profileId) return undefined;
      const v = s.watcher.views();
      return {
        orders: v.orders?.orders ?? [],
        trades: v.trades?.trades ?? null,
        positions: v.positions?.positions ?? [],
      };
    },
    refreshBook: w.pollNow,
    settled(journalId) {
      // A journal closed by the core's stop has nothing to say.
      let e;
      try {
        e = w.journal.get(journalId);
      } catch {
        return undefined;
      }
      if (!e?.resolution) return undefined;
      const { found, orderid, message } = e.resolution;
      return { journalId, found, message, ...(orderid ? { orderid } : {}), orderids: e.orderIds };
    },
    clock: w.clock,
    logger: w.logger,
    notify: (n) => w.notifier.notify({ kind: 'warning', sticky: true, ...n }),
    store: createStrategyStore(join(w.dataDir, 'strategies'), () => w.clock.now()),
    onViews: (profileId, strategies) => w.emit('strategies.list', { profileId, strategies }),
    watchPrices: createPriceSubscriptions(w.market, (i, reason) =>
      w.logger.warn('strategies: no prices for a leg; its P&L waits for the position book', { ...i, reason }),
    ),
  });
}
