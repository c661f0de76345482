// `orders.protect` and `protection.*`: brackets of the active profile (core/protection). Attaching
// looks at the entry's book as last read at once, so an entry already filled gets its legs now; each
// change answers with the bracket as the book read after it shows it.
import type { BracketView, IpcResult } from '../../contract/index.js';
import type { BracketAnswer, ProtectionService } from '../protection/protection-service.js';
import { failResult, okResult } from './results.js';
import type { Handlers } from './router.js';
import type { Session } from './session.js';

export type ProtectionChannels =
  | 'orders.protect'
  | 'protection.brackets'
  | 'protection.modify'
  | 'protection.remove'
  | 'protection.retry'
  | 'protection.flatten';

const answer = (r: BracketAnswer): IpcResult<BracketView> =>
  r.ok ? okResult(r.view) : failResult('invalid_input', r.message);

export function protectionHandlers(d: {
  session: () => Session;
  protection: ProtectionService;
}): Pick<Handlers, ProtectionChannels> {
  const profile = () => d.session().profile.id;
  return {
    async 'orders.protect'(input) {
      const s = d.session();
      const attached = await d.protection.attach(s.profile.id, input);
      if (!attached.ok) return failResult('invalid_input', attached.message);
      await d.protection.onOrders(s.profile.id, s.watcher.views().orders?.orders ?? []);
      return okResult({ orderid: input.orderid });
    },
    async 'protection.brackets'() {
      const profileId = profile();
      return okResult({ profileId, brackets: d.protection.views(profileId) });
    },
    async 'protection.modify'(input) {
      const to = {
        ...(input.stop !== undefined ? { stop: input.stop } : {}),
        ...(input.target !== undefined ? { target: input.target } : {}),
      };
      return answer(await d.protection.modify(profile(), input.entry, to));
    },
    async 'protection.remove'(input) {
      return answer(await d.protection.remove(profile(), input.entry));
    },
    async 'protection.retry'(input) {
      return answer(await d.protection.retry(profile(), input.entry));
    },
    async 'protection.flatten'(input) {
      const r = await d.protection.flatten(profile(), input.entry);
      if (!r.ok) return failResult('invalid_input', r.message);
      return okResult({ orderid: r.orderid, action: r.action, quantity: r.quantity });
    },
  };
}
