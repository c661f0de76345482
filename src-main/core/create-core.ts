// The composition of the core: settings, secrets, profiles, journal, risk, the active profile's
// gateway client and watcher, alerts, and the router over all of it. Knows nothing of Electron: the
// shell (or the browser-mode host, or a test) hands in the ports and binds `router` and `events`.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  PAPER_PROFILE_ID,
  UnknownOperation,
  errorMessage,
  type OrderSnapshot,
  type Profile,
} from '../contract/index.js';
import {
  createGatewayClient,
  redact,
  systemClock,
  type Clock,
  type FetchFn,
  type GatewayClient,
  type GatewayClientOptions,
} from '../gateway/index.js';
import { createAlerts, trayState } from './alerts/index.js';
import { createGttSettler, type GttSettler } from './gtt/gtt-settler.js';
import { gttHandlers } from './router/gtt-handlers.js';
import { createJournal } from './journal/index.js';
import { createLastPrices, createMarketWatch } from './market/index.js';
import { feedRefusal, feedUrlFor, openFeedLink, type FeedLink } from './feed/feed-link.js';
import { createGatewayMode } from './gateway-mode.js';
import type { ChooseSavePath, Logger, Notifier, Paths, SafeStoragePort, TraySink } from './ports.js';
import { createProfiles } from './profiles/index.js';
import { createDailyLimits, createDuplicateGuard } from './risk/index.js';
import {
  createEventBus,
  createRiskGate,
  createRouter,
  marketHandlers,
  orderHandlers,
  readHandlers,
  serviceHandlers,
  type EventBus,
  type Router,
  type Session,
} from './router/index.js';
import {
  bindLegacyKeys,
  createRedactingLogger,
  createSecretStore,
  gatewayKeySource,
  type KeytarLoader,
  type SecretStore,
} from './secrets/index.js';
import { recentOrders } from './router/recent-orders.js';
import { createSettingsStore } from './settings/index.js';
import {
  adoptFoundInBook,
  adoptInterrupted,
  claimedOrderIds,
  createWatcher,
  DEFAULT_PATIENCE,
  INTERRUPTED_MIN_AGE_MS,
  nextAdoptionAt,
  istDayStart,
  journalResolution,
  openSeenStore,
  restoreUnknowns,
  WATCHER_DB,
  type Patience,
  type PendingUnknown,
  type Interrupted,
  type SeenStore,
  type Undecided,
  type Watcher,
} from './watcher/index.js';
import { totalMtm } from './watcher/position-diff.js';
import { createStorageState } from './storage-status.js';

/** A running embedded paper gateway, as the core needs it. */
export interface EmbeddedGateway {
  url: string;
  /** Its WebSocket feed (order updates, ticks); absent: the core polls only. */
  feedUrl?: string;
  stop(): Promise<void>;
}
/** Starts the paper gateway for the default profile, on loopback, with this key and data dir. */
export type StartPaperGateway = (options: { dataDir: string; apiKey: string }) => Promise<EmbeddedGateway>;

export interface CorePorts {
  paths: Paths;
  logger: Logger;
  notifier: Notifier;
  tray: TraySink;
  /** Time and timers (polling, timeouts, rate budget); tests pass a ManualClock. */
  clock?: Clock;
  fetch?: FetchFn;
  /** A ready secret store; otherwise one is made from the backends below. */
  secretStore?: SecretStore;
  /** keytar loader; `null` skips the OS keychain (tests, CI). */
  keytar?: KeytarLoader | null;
  safeStorage?: SafeStoragePort;
  /**
   * Starts the embedded paper gateway (the default profile's). Required: the core never imports
   * paper; the composition root passes src-main/composition/paper-port.ts (tests their own).
   */
  startPaperGateway: StartPaperGateway;
  /** Client tuning (tests: no read retries, a wider budget). Mutations are never retried regardless. */
  gateway?: Pick<GatewayClientOptions, 'timeoutMs' | 'retry' | 'rateLimit' | 'random'>;
  /** How long an unknown outcome waits before "not found". */
  patience?: Patience;
  /** Whether the window starts visible. */
  visible?: boolean;
  /** Tests: the feed reconnects sooner after a drop (default 500 ms, doubling). */
  feedRetryBaseMs?: number;
  /** Listen to the profile's WebSocket feed (default true); a one-shot CLI run has no use for it. */
  feeds?: boolean;
  /**
   * Runs on this profile instead of the saved active one, and saves no switch to it (the CLI's
   * --profile and --url). One that settings do not hold is transient: it lasts as long as this core.
   */
  profile?: Profile;
  /** Where to save a file the user asked for (journal.exportCsv); without it, exports are refused. */
  chooseSavePath?: ChooseSavePath;
  /** Opens the watcher's store of what it has reported (the stress runner wraps it to plant a fault). */
  openSeenStore?: (path: string) => SeenStore;
}

export interface Core {
  router: Router;
  events: Pick<EventBus, 'on' | 'onAny'>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Polls the active profile now (the UI's refresh; tests). */
  pollNow(): Promise<void>;
}

export const KEYCHAIN_SERVICE = 'OrderDesk';

export function createCore(ports: CorePorts): Core {
  const clock = ports.clock ?? systemClock;
  const dataDir = ports.paths.dataDir;
  const bus = createEventBus((name, err) =>
    logger.error('event listener failed', {
      event: name,
      error: errorMessage(err),
    }),
  );
  // The store's own warnings go through the redacting wrapper too (it is built just below).
  let secretValues: () => readonly string[] = () => [];
  // Every event leaves redacted: a gateway or feed echoing a key cannot put it on the bridge.
  const emit: typeof bus.emit = (name, payload) =>
    bus.emit(name, redact(payload, secretValues(), { fields: false }));
  const logger: Logger = createRedactingLogger(ports.logger, () => secretValues());
  const secrets: SecretStore =
    ports.secretStore ??
    createSecretStore({
      service: KEYCHAIN_SERVICE,
      paths: ports.paths,
      logger,
      ...(ports.keytar !== undefined ? { keytar: ports.keytar } : {}),
      ...(ports.safeStorage ? { safeStorage: ports.safeStorage } : {}),
    });
  secretValues = () => secrets.valuesForRedaction();
  const scrub = <T>(value: T): T => redact(value, secrets.valuesForRedaction(), { fields: false });

  const settings = createSettingsStore({ path: join(dataDir, 'settings.json'), logger });
  const profiles = createProfiles({ settings, secrets });
  const journal = createJournal({
    dbPath: join(dataDir, 'journal.db'),
    clock,
    secrets: secretValues,
    onSyncError: (err) => logger.error('journal flush to disk failed', { reason: errorMessage(err) }),
  });
  const seen = (ports.openSeenStore ?? openSeenStore)(join(dataDir, WATCHER_DB));
  const storage = createStorageState({ emit, logger, clock });
  // Fed by market polling (wire()); the risk gate prices orders from it before asking the gateway.
  const lastPrices = createLastPrices(clock);
  const risk = createRiskGate(
    () => settings.get().risk,
    createDuplicateGuard({ clock, windowMs: () => settings.get().risk.duplicateWindowMs }),
    { fresh: (scope, instrument) => lastPrices.fresh(scope, instrument) },
  );
  const alerts = createAlerts({
    notifier: ports.notifier,
    clock,
    emit,
    rules: () => settings.get().alerts,
    setPaused: async (paused) => {
      await settings.patch({ alerts: { paused } });
    },
  });

  // Paper, sandbox or live, and streaming or polling: what the desk shows of the active profile.
  const gatewayMode = createGatewayMode({ emit, logger });
  // Market subscriptions outlive sessions: a profile switch re-points them at the new gateway.
  const market = createMarketWatch({ clock, emit, logger, visible: ports.visible ?? false });
  let session: Session | undefined;
  /** Settles the active profile's GTT actions of unknown outcome from its GTT order book. */
  let gttSettler: GttSettler | undefined;
  let paper: EmbeddedGateway | undefined;
  let feed: FeedLink | undefined;
  let paperStarting: Promise<EmbeddedGateway> | undefined;
  let visible = ports.visible ?? false;
  let started = false;
  /** When this core started (epoch ms): journal entries written before it are an earlier run's. */
  let startedAt = 0;
  let cancelAdoption: (() => void) | undefined;
  let switching: Promise<void> = Promise.resolve();
  /** Watchers of earlier sessions whose last poll is still in flight (a hung gateway must not block a switch). */
  const retiring = new Set<Promise<void>>();
  /** Unknown outcomes of profiles switched away from, settled by their next watcher. */
  const parked = new Map<string, PendingUnknown[]>();
  /** Journal entries already reported as impossible to settle automatically (said once per core). */
  const warnedUnsettleable = new Set<string>();
  /**
   * One client per profile, kept across switches, so what it learnt (a 404 means "not offered", a
   * 429's cooldown) stays with that profile and never leaks to another. Rebuilt when the profile's
   * URL or rate budget changes.
   */
  const clients = new Map<string, { baseUrl: string; rateLimit: number; client: GatewayClient }>();
  const unsubscribe: (() => void)[] = [];
  /** Per profile, whether its last connection event was `connected` (a reconnect asks the analyzer). */
  const connectedOnce = new Map<string, boolean>();

  function currentSession(): Session {
    if (!session) throw new Error('the core is not started');
    return session;
  }

  /** The paper profile's key is OrderDesk's own: made once, kept in the secret store. */
  async function ensurePaper(): Promise<EmbeddedGateway> {
    if (paper) return paper;
    paperStarting ??= (async () => {
      let key = await secrets.revealForGatewayClient(PAPER_PROFILE_ID);
      if (!key) {
        key = randomBytes(32).toString('hex');
        await secrets.set(PAPER_PROFILE_ID, key);
      }
      const gw = await ports.startPaperGateway({
        dataDir: join(dataDir, 'paper'),
        apiKey: key,
      });
      profiles.setEmbeddedBaseUrl(gw.url);
      logger.info('paper gateway started', { url: gw.url });
      paper = gw;
      return gw;
    })();
    try {
      return await paperStarting;
    } finally {
      paperStarting = undefined;
    }
  }

  async function clientFor(profile: Profile): Promise<GatewayClient> {
    // A paper ledger that cannot be opened leaves the paper profile unavailable, not the core stopped.
    if (profile.kind === 'paper' && !(await storage.paperStarts(ensurePaper)))
      return storage.unavailableClient();
    const baseUrl = profile.kind === 'paper' ? (await ensurePaper()).url : profile.baseUrl;
    const rateLimit = profile.rateLimitPerSecond;
    const known = clients.get(profile.id);
    if (known && known.baseUrl === baseUrl && known.rateLimit === rateLimit) return known.client;
    const client = createGatewayClient({
      baseUrl,
      // Only to the origin the key was entered for, and not over plain http:// elsewhere unasked.
      getApiKey: gatewayKeySource(secrets, () => profiles.get(profile.id) ?? profile, baseUrl),
      clock,
      rateLimit,
      onAnalyzeMode: () => gatewayMode.analyzeSeen(profile.id),
      ...(ports.fetch ? { fetch: ports.fetch } : {}),
      // Test tuning; a `rateLimit` here overrides every profile's.
      ...ports.gateway,
    });
    clients.set(profile.id, { baseUrl, rateLimit, client });
    return client;
  }

  function updateTray(): void {
    const s = session;
    const a = alerts.state();
    ports.tray.update(
      trayState({
        connection: s?.watcher.connection() ?? 'disconnected',
        paused: a.paused,
        stickyAlerts: a.sticky.length,
        openOrders: s?.watcher.openOrders() ?? 0,
        profileName: s?.profile.name ?? 'OrderDesk',
        mode: gatewayMode.view()?.mode ?? (s?.profile.kind === 'gateway' ? 'live' : 'paper'),
        mtm: s ? totalMtm(s.watcher.positions().map((p) => p.mtm)) : null,
      }),
    );
  }

  /**
   * Unknown outcomes of today the journal still holds unresolved (an earlier run of the core), less
   * those this core is tracking already.
   */
  function restoreFromJournal(profileId: string, tracked: readonly PendingUnknown[]): PendingUnknown[] {
    try {
      const restored = restoreUnknowns(
        journal,
        profileId,
        clock.now(),
        new Set(tracked.map((p) => p.journalId)),
        (id) => claimedOrderIds(journal, profileId, istDayStart(clock.now()), id),
      );
      for (const e of restored.unsettleable) {
        if (warnedUnsettleable.has(e.id)) continue;
        warnedUnsettleable.add(e.id);
        logger.warn('an order action has an unknown outcome that only the order book can settle', {
          profileId,
          journalId: e.id,
          operation: e.operation,
        });
      }
      return restored.pending;
    } catch (err) {
      logger.error('unknown outcomes not read back from the journal', {
        profileId,
        error: errorMessage(err),
      });
      return [];
    }
  }

  /**
   * Today's entries an earlier run sent but stopped before recording the answer of: from now on
   * unknown outcomes (journalled), announced once by announceInterrupted.
   */
  function adoptFromJournal(profileId: string, before: number | undefined, now: number): Interrupted[] {
    try {
      return adoptInterrupted(journal, profileId, now, logger, undefined, before);
    } catch (err) {
      logger.error('interrupted order actions not read back from the journal', {
        profileId,
        error: errorMessage(err),
      });
      return [];
    }
  }

  /**
   * Pending entries of an earlier run still too young to adopt at the start (a core restarted within
   * seconds of a crash) are adopted by the running core once they are old enough, not left pending
   * until its next start. Only entries from before this core started: none of them is its own call.
   * `now` is the time the adoption just made was judged at: the entries it found too young are then
   * exactly the ones waited for here (read later, an entry coming of age in between was in neither,
   * and stayed pending: a timer firing a millisecond early did that in the stress restarts suite).
   */
  function adoptWhenOfAge(profileId: string, now: number): void {
    cancelAdoption?.();
    cancelAdoption = undefined;
    let due: number | undefined;
    try {
      due = nextAdoptionAt(journal, profileId, now, startedAt);
    } catch (err) {
      logger.error('interrupted order actions not read back from the journal', {
        profileId,
        error: errorMessage(err),
      });
    }
    if (due === undefined) return;
    const wait = Math.max(0, due - clock.now());
    logger.info('an interrupted order action is adopted once old enough', { profileId, inMs: wait });
    cancelAdoption = clock.setTimer(() => {
      cancelAdoption = undefined;
      const s = session;
      if (!started || s?.profile.id !== profileId) {
        logger.warn('interrupted order actions left for the next start', { profileId });
        return;
      }
      const at = clock.now();
      const adopted = adoptFromJournal(profileId, startedAt, at);
      const ids = new Set(adopted.map((a) => a.entry.id));
      s.watcher.adoptPending(
        restoreFromJournal(profileId, s.watcher.pendingUnknowns()).filter((p) => ids.has(p.journalId)),
      );
      if (gttSettler?.profileId === profileId) gttSettler.restore();
      announceInterrupted(profileId, adopted);
      adoptWhenOfAge(profileId, at);
    }, wait);
  }

  /**
   * An earlier run's pending entries the book already settles are adopted on this read, not once of
   * age (watcher/book-adoption.ts); the watcher settles them on the read it starts now. Only in the
   * first INTERRUPTED_MIN_AGE_MS of this core: later, every entry from before its start is of age.
   */
  function adoptFoundNow(profileId: string, orders: readonly OrderSnapshot[]): void {
    const s = session;
    const now = clock.now();
    if (!started || s?.profile.id !== profileId || now - startedAt > INTERRUPTED_MIN_AGE_MS) return;
    let adopted: Interrupted[];
    try {
      adopted = adoptFoundInBook(journal, profileId, orders, now, startedAt, logger);
    } catch (err) {
      logger.error('interrupted order actions not read back from the journal', {
        profileId,
        error: errorMessage(err),
      });
      return;
    }
    if (adopted.length === 0) return;
    const ids = new Set(adopted.map((a) => a.entry.id));
    s.watcher.adoptPending(
      restoreFromJournal(profileId, s.watcher.pendingUnknowns()).filter((p) => ids.has(p.journalId)),
    );
    announceInterrupted(profileId, adopted);
    void s.watcher.pollNow();
  }

  /** One alert per interrupted entry: "checking the order book", or "check it" when nothing can. */
  function announceInterrupted(profileId: string, adopted: readonly Interrupted[]): void {
    for (const a of adopted) {
      const known = UnknownOperation.safeParse(a.entry.operation);
      // A smart order (the only other placing action) places an order if anything.
      const operation = known.success ? known.data : 'placeorder';
      const orderid =
        a.intent?.operation === 'modifyorder' || a.intent?.operation === 'cancelorder'
          ? a.intent.orderid
          : undefined;
      // A GTT's modify or cancel names its GTT; the GTT settler checks the GTT order book.
      const triggerId = a.gtt && a.gtt.operation !== 'placegttorder' ? a.gtt.triggerId : undefined;
      logger.warn('an order action was sent before OrderDesk stopped, its answer not recorded', {
        profileId,
        journalId: a.entry.id,
        operation: a.entry.operation,
      });
      if (a.intent || a.gtt)
        emit('orders.unknown', {
          profileId,
          time: clock.now(),
          journalId: a.entry.id,
          operation,
          ...(orderid !== undefined ? { orderid } : {}),
          ...(triggerId !== undefined ? { triggerId } : {}),
          message: a.message,
        });
      else
        alerts.unsettled({
          journalId: a.entry.id,
          operation,
          message: `${a.message}; its request does not say what to look for: check the order book`,
        });
    }
  }

  /** An interrupted action more than one order could be: the trader is asked to look. */
  function reportUndecided(profileId: string, u: Undecided): void {
    logger.warn('an interrupted order action could not be settled from the order book', {
      profileId,
      journalId: u.journalId,
      operation: u.operation,
    });
    if (session?.profile.id === profileId)
      alerts.unsettled({ journalId: u.journalId, operation: u.operation, message: u.message });
  }

  /**
   * Orders journalled within the duplicate window before this session (an earlier run, or the CLI,
   * which runs a core per order) count as sent: the duplicate guard holds back the same order again.
   */
  function rememberRecentOrders(profileId: string): void {
    try {
      const from = clock.now() - settings.get().risk.duplicateWindowMs;
      for (const sent of recentOrders(journal, profileId, from))
        risk.remember(sent.legs, { scope: profileId, atMs: sent.time });
    } catch (err) {
      logger.error('recent orders not read back from the journal', {
        profileId,
        error: errorMessage(err),
      });
    }
  }

  /** The profile's feed, if it offers one; the previous profile's is closed first. */
  function openFeed(profile: Profile, watcher: Watcher): void {
    feed?.close();
    feed = undefined;
    const url = ports.feeds === false ? undefined : feedUrlFor(profile, paper?.feedUrl);
    const refused = feedRefusal(profile, url);
    if (refused || !url) {
      gatewayMode.feed(profile.id, { state: 'polling', ...(url ? { url } : {}), reason: refused ?? '' });
      return;
    }
    const feedKey = gatewayKeySource(secrets, () => profiles.get(profile.id) ?? profile, profile.baseUrl);
    feed = openFeedLink({
      profileId: profile.id,
      url,
      onFeed: (f) => gatewayMode.feed(profile.id, f),
      getApiKey: async () => {
        const key = await feedKey();
        return typeof key === 'string' ? key : undefined;
      },
      clock,
      logger,
      watcher,
      market,
      ...(ports.feedRetryBaseMs !== undefined ? { retryBaseMs: ports.feedRetryBaseMs } : {}),
    });
  }

  async function openSession(profile: Profile): Promise<void> {
    // The old watcher stops polling now; a poll it has in flight ends on its own (its events carry
    // its profile id and raise no alerts), so a hung gateway cannot hold up the switch.
    const previous = session?.watcher;
    const old = previous?.stop();
    if (previous && old) {
      const done: Promise<void> = old.finally(() => retiring.delete(done));
      retiring.add(done);
      const unsettled = previous.pendingUnknowns();
      if (unsettled.length > 0) parked.set(previous.profileId, unsettled);
    }
    risk.clear();
    // Keys held in memory are read again from the store: one changed meanwhile by another process
    // (the CLI's key set) takes effect on the switch at the latest.
    secrets.forget();
    // A profile reopened on another URL is another gateway: its prices are not these.
    lastPrices.clear();
    rememberRecentOrders(profile.id);
    const client = await clientFor(profile);
    // Polling reads in the background lane of the shared budget: an order's requests go first.
    const polling = client.withPriority('background');
    const carried = parked.get(profile.id);
    parked.delete(profile.id);
    const openedAt = clock.now();
    const adopted = adoptFromJournal(profile.id, undefined, openedAt);
    const pending = [...(carried ?? []), ...restoreFromJournal(profile.id, carried ?? [])];
    const watcher = createWatcher({
      profileId: profile.id,
      client: polling,
      clock,
      store: seen,
      polling: () => settings.get().polling,
      emit,
      logger,
      visible,
      ...(ports.patience ? { patience: ports.patience } : {}),
      pending,
      resolved: journalResolution(journal),
      undecided: (u) => reportUndecided(profile.id, u),
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
      patience: ports.patience ?? DEFAULT_PATIENCE,
      undecided: (u) => {
        if (session?.profile.id === profile.id)
          alerts.unsettled({ journalId: u.journalId, operation: u.operation, message: u.message });
      },
    });
    gttSettler.restore();
    market.setSession(profile.id, polling);
    gatewayMode.open(session.profile, polling);
    openFeed(profile, watcher);
    if (started) watcher.start();
    emit('profiles.switched', { profileId: profile.id });
    announceInterrupted(profile.id, adopted);
    adoptWhenOfAge(profile.id, openedAt);
    updateTray();
  }

  /** Profile switches and changes to the active profile's URL or rate rebuild the session, in turn. */
  function reopen(profile: Profile): void {
    switching = switching
      .then(() => openSession(profile))
      .catch((err: unknown) => {
        logger.error('could not open the profile', { profileId: profile.id, error: errorMessage(err) });
      });
  }

  const inner = createRouter(
    {
      ...orderHandlers({
        session: currentSession,
        journal,
        risk,
        daily: createDailyLimits(clock),
        limits: () => settings.get().risk,
        clock,
        emit,
        logger,
      }),
      ...gttHandlers({
        session: currentSession,
        journal,
        risk,
        clock,
        emit,
        logger,
        settler: (s) => {
          if (gttSettler?.profileId !== s.profile.id) throw new Error('no GTT settler for this profile');
          return gttSettler;
        },
      }),
      ...marketHandlers({ market }),
      ...readHandlers({ session: currentSession }),
      ...serviceHandlers({
        session: currentSession,
        secrets,
        settings,
        profiles,
        journal,
        alerts,
        emit,
        clock,
        lastSeq: bus.lastSeq,
        storage: storage.status,
        gateway: () => gatewayMode.view(),
        resetPaper: () =>
          storage.resetPaper(async () => {
            if ((await storage.paperStarts(ensurePaper)) && session?.profile.kind === 'paper') {
              reopen(session.profile);
              await switching;
            }
          }),
        ...(ports.chooseSavePath ? { chooseSavePath: ports.chooseSavePath } : {}),
        async testKey(profileId) {
          const s = currentSession();
          const profile = s.profile.id === profileId ? s.profile : profiles.get(profileId);
          if (!profile) throw new Error(`no profile ${profileId}`);
          const client = s.profile.id === profileId ? s.client : await clientFor(profile);
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
          market.setVisibility(v);
          return session?.watcher.setVisibility(v) ?? 0;
        },
        keyChanged(profileId) {
          if (session?.profile.id !== profileId) return;
          // The feed authenticated with the old key: a new one (or none, once cleared) takes effect
          // there too, not at the next drop.
          openFeed(session.profile, session.watcher);
          void session.watcher.pollNow();
        },
      }),
    },
    { logger, redact: scrub },
  );
  /**
   * Calls wait for a profile switch under way (opening a session is quick: it never waits for the old
   * gateway), so a call made after `profiles.switch` answered can never reach the previous profile.
   */
  const router: Router = {
    channels: inner.channels,
    invoke: (async (channel: string, input?: unknown) => {
      await switching;
      const unavailable = storage.refusal(channel, session?.profile.kind);
      if (unavailable) return unavailable;
      const result = await inner.invoke(channel, input);
      await switching;
      return result;
    }) as Router['invoke'],
  };

  function wire(): void {
    // Only the active profile's events alert (a switch stops the old watcher, but not its last poll).
    const active = (e: { profileId: string }) => e.profileId === session?.profile.id;
    unsubscribe.push(
      bus.on('orders.filled', (e) => {
        if (active(e))
          alerts.handle({ type: 'order.filled', order: e.order, lastFillQuantity: e.lastFillQuantity });
      }),
      bus.on('orders.partial', (e) => {
        if (active(e))
          alerts.handle({ type: 'order.partial', order: e.order, lastFillQuantity: e.lastFillQuantity });
      }),
      bus.on('orders.rejected', (e) => {
        if (active(e)) alerts.handle({ type: 'order.rejected', order: e.order, reason: e.reason });
      }),
      bus.on('orders.cancelled', (e) => {
        if (active(e)) alerts.handle({ type: 'order.cancelled', order: e.order });
      }),
      bus.on('orders.unknown', (e) => {
        if (active(e)) alerts.unknown(e);
      }),
      bus.on('market.ltp', (e) => lastPrices.record(e.profileId, e, e.ltp, e.time)),
      bus.on('market.quote', (e) => lastPrices.record(e.profileId, e, e.ltp, e.time)),
      bus.on('market.depth', (e) => lastPrices.record(e.profileId, e, e.ltp, e.time)),
      bus.on('session.connection', updateTray),
      bus.on('session.gateway', updateTray),
      bus.on('session.connection', (e) => {
        // Asked again once per connect: the gateway may have been switched while it was away.
        const wasConnected = connectedOnce.get(e.profileId);
        connectedOnce.set(e.profileId, e.state === 'connected');
        if (e.state === 'connected' && wasConnected === false) gatewayMode.reconnected(e.profileId);
      }),
      bus.on('alerts.state', updateTray),
      bus.on('books.orders', updateTray),
      bus.on('books.orders', (e) => adoptFoundNow(e.profileId, e.view.orders)),
      bus.on('books.positions', updateTray),
      profiles.onSwitch((p) => reopen(p)),
      settings.onChange(() => {
        for (const id of clients.keys()) if (!profiles.get(id)) clients.delete(id);
        // Compared resolved: the paper profile's stored URL is empty, its live one is the embedded port.
        const current = session?.profile;
        const next = current && profiles.get(current.id);
        if (current && next) {
          if (next.baseUrl !== current.baseUrl || next.rateLimitPerSecond !== current.rateLimitPerSecond)
            reopen(next);
          else if (session) {
            session = { ...session, profile: next };
            gatewayMode.profileChanged(next);
          }
        }
        updateTray();
      }),
    );
  }

  return {
    router,
    events: { on: bus.on, onAny: bus.onAny },
    async start() {
      if (started) return;
      await settings.load();
      await secrets.init();
      // A key saved before keys were tied to an address is tied now, to its profile's saved one.
      await bindLegacyKeys(secrets, settings.get().profiles, logger);
      for (const w of settings.warnings()) logger.warn(w);
      for (const [file, damaged] of [
        ['journal.db', journal.recovery()],
        [WATCHER_DB, seen.recovery?.()],
      ] as const)
        if (damaged)
          logger.warn(
            `${file} could not be read (${damaged.code}); it was kept as ${damaged.backupPath} and a new one started with what could be read from it`,
            { salvaged: damaged.salvaged },
          );
      const salvaged = journal.recovery();
      if (salvaged) storage.journalSalvaged(salvaged);
      wire();
      started = true;
      startedAt = clock.now();
      await openSession(ports.profile ?? profiles.active());
    },
    async stop() {
      started = false;
      cancelAdoption?.();
      cancelAdoption = undefined;
      for (const u of unsubscribe.splice(0)) u();
      await switching;
      feed?.close();
      feed = undefined;
      market.stop();
      gttSettler?.stop();
      await session?.watcher.stop();
      await Promise.all(retiring);
      await paper?.stop();
      paper = undefined;
      journal.close();
      seen.close();
    },
    async pollNow() {
      await switching;
      await currentSession().watcher.pollNow();
      await gttSettler?.settleNow();
    },
  };
}
