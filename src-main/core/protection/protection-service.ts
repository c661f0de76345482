// The core's brackets: one keeper per profile, fed the watcher's order books, sending its stops and
// targets through the router's own order channels (journal first, risk checks, the order rate
// budget, unknown outcomes settled from the book). A keeper only ever sends while its profile is the
// active one: after a switch its orders wait, never going to another profile's gateway.
import type { IpcResult, OrderSnapshot } from '../../contract/index.js';
import type { Clock } from '../../gateway/index.js';
import type { Logger } from '../ports.js';
import {
  createBracketKeeper,
  type BracketEntry,
  type BracketHazard,
  type BracketKeeper,
  type ProtectiveOrder,
  type SendResult,
} from './bracket-keeper.js';
import { sendResultOf } from './send-outcome.js';

type OrderChannel = 'orders.place' | 'orders.modify' | 'orders.cancel';

export interface ProtectionDeps {
  invoke(channel: OrderChannel, input: object): Promise<IpcResult<{ orderid: string }>>;
  activeProfileId(): string | undefined;
  clock: Clock;
  logger: Logger;
  onHazard(profileId: string, hazard: BracketHazard): void;
  /** Strategy tag of the protective orders (the journal and the book show it). */
  strategy?: string;
}

export interface ProtectionService {
  attach(profileId: string, entry: BracketEntry): void;
  /** A book of the profile's orders, as the watcher read it. */
  onOrders(profileId: string, orders: readonly OrderSnapshot[]): Promise<void>;
}

/** Sent again once a look finds nothing changed: a leg that was not sent is planned again. */
const LOOK_AGAIN_MS = 1_000;

export function createProtectionService(d: ProtectionDeps): ProtectionService {
  const strategy = d.strategy ?? 'OrderDesk protection';
  const keepers = new Map<
    string,
    { keeper: BracketKeeper; last: readonly OrderSnapshot[]; chain: Promise<void> }
  >();
  const lookAgain = new Set<string>();

  function keeperOf(profileId: string) {
    let k = keepers.get(profileId);
    if (k) return k;
    const send = async (channel: OrderChannel, input: object): Promise<SendResult> => {
      if (d.activeProfileId() !== profileId)
        return { ok: false, outcome: 'not_sent', message: 'another profile is active' };
      return sendResultOf(await d.invoke(channel, input));
    };
    const leg = (o: ProtectiveOrder) => ({ ...o, strategy, disclosed_quantity: 0 });
    const keeper = createBracketKeeper(
      {
        // The keeper sends each leg once: the duplicate guard's hold is for a trader's second press.
        place: (o) => send('orders.place', { ...leg(o), confirmDuplicate: true }),
        modify: (o) => send('orders.modify', leg(o)),
        cancel: (orderid) => send('orders.cancel', { orderid, strategy }),
      },
      (h) => d.onHazard(profileId, h),
    );
    k = { keeper, last: [], chain: Promise.resolve() };
    keepers.set(profileId, k);
    return k;
  }

  function look(profileId: string, orders: readonly OrderSnapshot[]): Promise<void> {
    const k = keepers.get(profileId);
    // No bracket on this profile: nothing to do, no keeper made.
    if (!k) return Promise.resolve();
    k.last = orders;
    const run = async () => {
      const again = await k.keeper.onBook(orders).catch((err: unknown) => {
        d.logger.error('protection: a book could not be acted on', { profileId, error: String(err) });
        return true;
      });
      // Anything sent changes the book (a new one comes); a leg not sent does not: look again.
      if (!again || lookAgain.has(profileId)) return;
      lookAgain.add(profileId);
      d.clock.setTimer(() => {
        lookAgain.delete(profileId);
        void look(profileId, k.last);
      }, LOOK_AGAIN_MS);
    };
    k.chain = k.chain.then(run, run);
    return k.chain;
  }

  return {
    attach(profileId, entry) {
      keeperOf(profileId).keeper.attach(entry);
    },
    onOrders: look,
  };
}
