// `orders.protect`: a stop and target attached to an entry's fills (core/protection). The entry's
// book as last read is looked at at once, so an entry already filled gets its legs now.
import type { ProtectionService } from '../protection/protection-service.js';
import { okResult } from './results.js';
import type { Handlers } from './router.js';
import type { Session } from './session.js';

export type ProtectionChannels =
  | 'orders.protect'
  | 'protection.brackets'
  | 'protection.modify'
  | 'protection.remove'
  | 'protection.retry'
  | 'protection.flatten';

export function protectionHandlers(d: {
  session: () => Session;
  protection: ProtectionService;
}): Pick<Handlers, ProtectionChannels> {
  return {
    async 'orders.protect'(input) {
      const s = d.session();
      d.protection.attach(s.profile.id, input);
      await d.protection.onOrders(s.profile.id, s.watcher.views().orders?.orders ?? []);
      return okResult({ orderid: input.orderid });
    },
  };
}
