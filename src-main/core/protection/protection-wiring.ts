// The core's brackets wired to the rest of the core: their orders through the router's own channels
// (journal first, risk, the rate budget), the GTT book read through it, hazards as sticky OS
// notifications, views as `protection.brackets` events, prices from the market watch, and the
// active profile's book read again on request.
import { join } from 'node:path';
import type { IpcResult } from '../../contract/index.js';
import type { Clock } from '../../gateway/index.js';
import type { Notifier, Logger } from '../ports.js';
import type { Emit } from '../router/event-bus.js';
import type { Router } from '../router/router.js';
import { createBracketStore } from './bracket-store.js';
import { hazardWords } from './hazard-words.js';
import { createPriceSubscriptions, type PriceMarket } from '../market/price-subscriptions.js';
import { createProtectionService, type ProtectionService } from './protection-service.js';

export interface ProtectionWiring {
  /** The router, once made (called only when brackets act). */
  router(): Router;
  activeProfileId(): string | undefined;
  pollNow(): Promise<void>;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  notifier: Notifier;
  emit: Emit;
  market: PriceMarket;
}

export function wireProtection(w: ProtectionWiring): ProtectionService {
  return createProtectionService({
    invoke: (channel, input) => w.router().invoke(channel, input) as Promise<IpcResult<{ orderid: string }>>,
    invokeGtt: (channel, input) =>
      w.router().invoke(channel, input) as Promise<IpcResult<{ trigger_id: string }>>,
    readGtts: async () => {
      const r = await w.router().invoke('gtt.book', { status: 'all' });
      return r.ok ? r.value.gtts : undefined;
    },
    activeProfileId: w.activeProfileId,
    clock: w.clock,
    logger: w.logger,
    onHazard: (profileId, h) => {
      const { title, body } = hazardWords(h);
      w.logger.warn(`protection: ${title}`, { profileId, entry: h.entry });
      w.notifier.notify({ kind: 'warning', title, body, sticky: true, id: `protection-${h.entry}` });
    },
    store: createBracketStore(join(w.dataDir, 'brackets'), () => w.clock.now()),
    onViews: (profileId, brackets) => w.emit('protection.brackets', { profileId, brackets }),
    watchPrices: createPriceSubscriptions(w.market, (i, reason) =>
      w.logger.warn('protection: no prices for a bracketed symbol; its stop does not trail', {
        ...i,
        reason,
      }),
    ),
    refreshBook: w.pollNow,
  });
}
