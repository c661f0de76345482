// The active profile's session and its lifecycle: opened at start, reopened in turn on a profile
// switch or a change of the active profile's URL or rate, each with its own watcher, GTT settler and
// feed. A switch never waits for the old gateway: the old watcher's last poll ends on its own, and
// its unsettled unknown outcomes are parked for that profile's next session.
import { errorMessage, type PingResponse, type Profile } from '../../contract/index.js';
import type { Clock, GatewayResult } from '../../gateway/index.js';
import type { Alerts } from '../alerts/index.js';
import type { CorePorts } from '../core-ports.js';
import type { GatewayMode } from '../gateway-mode.js';
import { createGttSettler, type GttSettler } from '../gtt/gtt-settler.js';
import type { Journal } from '../journal/index.js';
import type { LastPrices, MarketWatch } from '../market/index.js';
import type { Logger } from '../ports.js';
import type { Profiles } from '../profiles/index.js';
import type { Emit, EventBus, RiskGate, Session } from '../router/index.js';
import { recentOrders } from '../router/recent-orders.js';
import type { SecretStore } from '../secrets/index.js';
import type { SettingsStore } from '../settings/index.js';
import {
  createWatcher,
  DEFAULT_PATIENCE,
  journalResolution,
  type PendingUnknown,
  type SeenStore,
} from '../watcher/index.js';
import type { GatewayClients } from './gateway-clients.js';
import type { InterruptedAdoption } from './interrupted-adoption.js';
import type { SessionFeed } from './session-feed.js';

export interface Sessions {
  current(): Session | undefined;
  /** The active session; throws before the core has started. */
  require(): Session;
  gttSettler(): GttSettler | undefined;
  started(): boolean;
  startedAt(): number;
  /** Settles once the session switch under way (if any) is done. */
  switching(): Promise<void>;
  start(profile: Profile): Promise<void>;
  /** Rebuilds the session on this profile, after any switch under way. */
  reopen(profile: Profile): void;
  /** Reopens the paper session (after a paper reset) and waits for it. */
  reopenIfPaper(): Promise<void>;
  testKey(profileId: string): Promise<GatewayResult<PingResponse>>;
  setVisibility(visible: boolean): number;
  /** The active profile's key changed: its feed reconnects with the new one and the book is read. */
  keyChanged(profileId: string): void;
  /** Subscribes the session to profile switches, settings changes and its own events. */
  wire(bus: Pick<EventBus, 'on'>): (() => void)[];
  pollNow(): Promise<void>;
  /** Stops adopting and marks the core stopped (before its listeners go). */
  halt(): void;
  /** Waits for a switch under way, then stops the feed, market polling, the settler and watchers. */
  close(): Promise<void>;
}

export function createSessions(d: {
  ports: Pick<CorePorts, 'patience' | 'visible'>;
  clock: Clock;
  emit: Emit;
  logger: Logger;
  journal: Journal;
  seen: SeenStore;
  settings: SettingsStore;
  profiles: Profiles;
  secrets: SecretStore;
  risk: RiskGate;
  lastPrices: LastPrices;
  market: MarketWatch;
  gatewayMode: GatewayMode;
  alerts: Alerts;
  clients: GatewayClients;
  feed: SessionFeed;
  adoption: InterruptedAdoption;
  updateTray: () => void;
}): Sessions {
  const { clock, emit, logger, journal, settings, profiles, adoption } = d;
  let session: Session | undefined;
  /** Settles the active profile's GTT actions of unknown outcome from its GTT order book. */
  let gttSettler: GttSettler | undefined;
  let visible = d.ports.visible ?? false;
  let started = false;
  /** When this core started (epoch ms): journal entries written before it are an earlier run's. */
  let startedAt = 0;
  let switching: Promise<void> = Promise.resolve();
  /** Watchers of earlier sessions whose last poll is still in flight (a hung gateway must not block a switch). */
  const retiring = new Set<Promise<void>>();
  /** Unknown outcomes of profiles switched away from, settled by their next watcher. */
  const parked = new Map<string, PendingUnknown[]>();
  /** Per profile, whether its last connection event was `connected` (a reconnect asks the analyzer). */
  const connectedOnce = new Map<string, boolean>();

  function require(): Session {
    if (!session) throw new Error('the core is not started');
    return session;
  }

  /**
   * Orders journalled within the duplicate window before this session (an earlier run, or the CLI,
   * which runs a core per order) count as sent: the duplicate guard holds back the same order again.
   */
  function rememberRecentOrders(profileId: string): void {
    try {
      const from = clock.now() - settings.get().risk.duplicateWindowMs;
      for (const sent of recentOrders(journal, profileId, from))
        d.risk.remember(sent.legs, { scope: profileId, atMs: sent.time });
    } catch (err) {
      logger.error('recent orders not read back from the journal', {
        profileId,
        error: errorMessage(err),
      });
    }
  }

  /** The old watcher stops polling; its unsettled unknown outcomes wait for its profile's next session. */
  function retire(): void {
    // A poll it has in flight ends on its own (its events carry its profile id and raise no alerts),
    // so a hung gateway cannot hold up the switch.
    const previous = session?.watcher;
    const old = previous?.stop();
    if (!previous || !old) return;
    const done: Promise<void> = old.finally(() => retiring.delete(done));
    retiring.add(done);
    const unsettled = previous.pendingUnknowns();
    if (unsettled.length > 0) parked.set(previous.profileId, unsettled);
  }

  async function open(profile: Profile): Promise<void> {
    retire();
    d.risk.clear();
    // Keys held in memory are read again from the store: one changed meanwhile by another process
    // (the CLI's key set) takes effect on the switch at the latest.
    d.secrets.forget();
    // A profile reopened on another URL is another gateway: its prices are not these.
    d.lastPrices.clear();
    rememberRecentOrders(profile.id);
    const client = await d.clients.clientFor(profile);
    // Polling reads in the background lane of the shared budget: an order's requests go first.
    const polling = client.withPriority('background');
    const carried = parked.get(profile.id);
    parked.delete(profile.id);
    const openedAt = clock.now();
    const adopted = adoption.adoptAtOpen(profile.id, openedAt);
    const pending = [...(carried ?? []), ...adoption.restore(profile.id, carried ?? [])];
    const watcher = createWatcher({
      profileId: profile.id,
      client: polling,
      clock,
      store: d.seen,
      polling: () => settings.get().polling,
      emit,
      logger,
      visible,
      ...(d.ports.patience ? { patience: d.ports.patience } : {}),
      pending,
      resolved: journalResolution(journal),
      undecided: (u) => adoption.reportUndecided(profile.id, u),
    });
    session = { profile: profiles.get(profile.id) ?? profile, client, watcher };
    gttSettler?.stop();
    gttSettler = createGttSettler({
      profileId: profile.id,
      client: polling,
      journal,
      clock,
      emit,
      logger,
      patience: d.ports.patience ?? DEFAULT_PATIENCE,
      undecided: (u) => {
        if (session?.profile.id === profile.id)
          d.alerts.unsettled({ journalId: u.journalId, operation: u.operation, message: u.message });
      },
    });
    gttSettler.restore();
    d.market.setSession(profile.id, polling);
    d.gatewayMode.open(session.profile, polling);
    d.feed.open(profile, watcher);
    if (started) watcher.start();
    emit('profiles.switched', { profileId: profile.id });
    adoption.announce(profile.id, adopted);
    adoption.whenOfAge(profile.id, openedAt);
    d.updateTray();
  }

  function reopen(profile: Profile): void {
    switching = switching
      .then(() => open(profile))
      .catch((err: unknown) => {
        logger.error('could not open the profile', { profileId: profile.id, error: errorMessage(err) });
      });
  }

  /** The active profile's settings changed: its URL or rate rebuilds the session, anything else is taken in. */
  function settingsChanged(): void {
    d.clients.prune();
    // Compared resolved: the paper profile's stored URL is empty, its live one is the embedded port.
    const current = session?.profile;
    const next = current && profiles.get(current.id);
    if (current && next) {
      if (next.baseUrl !== current.baseUrl || next.rateLimitPerSecond !== current.rateLimitPerSecond)
        reopen(next);
      else if (session) {
        session = { ...session, profile: next };
        d.gatewayMode.profileChanged(next);
      }
    }
    d.updateTray();
  }

  return {
    current: () => session,
    require,
    gttSettler: () => gttSettler,
    started: () => started,
    startedAt: () => startedAt,
    switching: () => switching,
    async start(profile) {
      started = true;
      startedAt = clock.now();
      await open(profile);
    },
    reopen,
    async reopenIfPaper() {
      if (session?.profile.kind !== 'paper') return;
      reopen(session.profile);
      await switching;
    },
    async testKey(profileId) {
      const s = require();
      const profile = s.profile.id === profileId ? s.profile : profiles.get(profileId);
      if (!profile) throw new Error(`no profile ${profileId}`);
      const client = s.profile.id === profileId ? s.client : await d.clients.clientFor(profile);
      const pong = await client.ping();
      if (pong.ok || pong.error.kind !== 'not_offered') return pong;
      // A gateway without ping (it is not in the spec): funds needs the same key and session.
      const funds = await client.funds();
      if (!funds.ok) return funds;
      return {
        ok: true,
        value: { status: 'success', data: { broker: '', message: 'key accepted (funds answered)' } },
      };
    },
    setVisibility(v) {
      visible = v;
      d.market.setVisibility(v);
      return session?.watcher.setVisibility(v) ?? 0;
    },
    keyChanged(profileId) {
      if (session?.profile.id !== profileId) return;
      // The feed authenticated with the old key: a new one (or none, once cleared) takes effect
      // there too, not at the next drop.
      d.feed.open(session.profile, session.watcher);
      void session.watcher.pollNow();
    },
    wire: (bus) => [
      bus.on('session.connection', (e) => {
        // Asked again once per connect: the gateway may have been switched while it was away.
        const wasConnected = connectedOnce.get(e.profileId);
        connectedOnce.set(e.profileId, e.state === 'connected');
        if (e.state === 'connected' && wasConnected === false) d.gatewayMode.reconnected(e.profileId);
      }),
      bus.on('books.orders', (e) => adoption.foundInBook(e.profileId, e.view.orders)),
      profiles.onSwitch((p) => reopen(p)),
      settings.onChange(settingsChanged),
    ],
    async pollNow() {
      await switching;
      await require().watcher.pollNow();
      await gttSettler?.settleNow();
    },
    halt() {
      started = false;
      adoption.cancel();
    },
    async close() {
      await switching;
      d.feed.close();
      d.market.stop();
      gttSettler?.stop();
      await session?.watcher.stop();
      await Promise.all(retiring);
    },
  };
}
