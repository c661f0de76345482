// The account guard wired to the rest of the core: its rules from settings, its file under the data
// dir, prices from the market watch, and its flatten on the active session through the router's own
// order channels (journalled, risk-gated: the gate judges an exit by the positions the flatten has
// just read), one cancel-all first.
import { join } from 'node:path';
import type { GuardRules, IpcResult } from '../../contract/index.js';
import { startFlatten, type ExitOrder, type FlattenProgress } from '../close-all/flatten-account.js';
import { createSliceLimit } from '../close-all/slice-limit.js';
import type { Alerts } from '../alerts/index.js';
import type { Journal } from '../journal/index.js';
import type { Clock, Logger } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import type { Router } from '../router/router.js';
import type { Session } from '../router/session.js';
import { createPriceSubscriptions, type PriceMarket } from '../market/price-subscriptions.js';
import { createGuardService, type GuardService } from './guard-service.js';
import { createGuardStore } from './guard-store.js';

/** The strategy tag of the guard's own exits and cancels. */
export const GUARD_STRATEGY = 'OrderDesk guard';

export interface GuardWiring {
  router(): Router;
  rules(profileId: string): GuardRules | undefined;
  session(): Session | undefined;
  dataDir: string;
  clock: Clock;
  emit: Emit;
  logger: Logger;
  alerts: Pick<Alerts, 'notice'>;
  journal: Pick<Journal, 'recordIntent' | 'recordOutcome'>;
  market: PriceMarket;
}

export function wireGuard(w: GuardWiring): GuardService {
  const flattenDeps = (s: Session, progress: (p: FlattenProgress) => void) => {
    const reads = s.client.withPriority('order');
    return {
      books: {
        orderbook: () => reads.orderbook(),
        async positionbook() {
          const r = await reads.positionbook();
          if (r.ok) guard.freshPositions(s.profile.id, r.value.data);
          return r;
        },
      },
      place: (o: ExitOrder) =>
        w.router().invoke('orders.place', {
          ...o,
          strategy: GUARD_STRATEGY,
          confirmDuplicate: true,
        }) as Promise<IpcResult<{ orderid: string }>>,
      cancel: (o: { orderid: string; strategy?: string }) =>
        w
          .router()
          .invoke('orders.cancel', { orderid: o.orderid, ...(o.strategy ? { strategy: o.strategy } : {}) }),
      cancelAll: () => w.router().invoke('orders.cancelAll', { strategy: GUARD_STRATEGY }),
      sliceLimit: createSliceLimit(reads),
      now: () => w.clock.now(),
      sleep: (ms: number) => new Promise<void>((resolve) => w.clock.setTimer(resolve, ms)),
      progress,
    };
  };
  const guard: GuardService = createGuardService({
    rules: w.rules,
    session: w.session,
    store: createGuardStore(join(w.dataDir, 'guard'), () => w.clock.now()),
    clock: w.clock,
    emit: w.emit,
    logger: w.logger,
    alerts: w.alerts,
    journal: w.journal,
    watchPrices: createPriceSubscriptions(w.market, (i, reason) =>
      w.logger.warn('guard: no live prices for an open position; it is marked at the book’s price', {
        ...i,
        reason,
      }),
    ),
    startFlatten: (s, progress) => startFlatten(flattenDeps(s, progress)),
  });
  return guard;
}
