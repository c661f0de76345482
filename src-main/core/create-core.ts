// Over 300 lines: the one place every part of the core is built and wired to the others.
// The composition of the core: settings, secrets, profiles, journal, risk, the active profile's
// session (gateway client, watcher, feed), alerts, and the router over all of it. Knows nothing of
// Electron: the shell (or the browser-mode host, or a test) hands in the ports and binds `router` and
// `events`.
import { join } from 'node:path';
import { errorMessage } from '../contract/index.js';
import { redact, systemClock } from '../gateway/index.js';
import { createAlerts, trayUpdater, wireAlerts, wireTray } from './alerts/index.js';
import type { CorePorts } from './core-ports.js';
import { createGatewayMode } from './gateway-mode.js';
import { createJournal } from './journal/index.js';
import { createLastPrices, createMarketWatch } from './market/index.js';
import type { Logger } from './ports.js';
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
} from './router/index.js';
import { gttHandlers } from './router/gtt-handlers.js';
import { guardHandlers } from './router/guard-handlers.js';
import { wireGuard, type GuardService } from './guard/index.js';
import { protectionHandlers } from './router/protection-handlers.js';
import { wireProtection } from './protection/index.js';
import { strategyHandlers } from './router/strategy-handlers.js';
import { wireStrategies } from './strategies/index.js';
import {
  bindLegacyKeys,
  createRedactingLogger,
  createSecretStore,
  type SecretStore,
} from './secrets/index.js';
import {
  createGatewayClients,
  createInterruptedAdoption,
  createPaperHost,
  createSessionFeed,
  createSessions,
  sessionRouter,
} from './session/index.js';
import { createSettingsStore, seedFirstWatchlist } from './settings/index.js';
import { createStorageState } from './storage-status.js';
import { openSeenStore, WATCHER_DB } from './watcher/index.js';

export type { CorePorts, EmbeddedGateway, StartPaperGateway } from './core-ports.js';

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
  // Fed by market events (wire()); the risk gate prices orders from it before asking the gateway.
  const lastPrices = createLastPrices(clock);
  const risk = createRiskGate(
    () => settings.get().risk,
    createDuplicateGuard({ clock, windowMs: () => settings.get().risk.duplicateWindowMs }),
    { fresh: (scope, instrument) => lastPrices.fresh(scope, instrument) },
    // The guard is built below; it is asked only once orders flow.
    (scope, legs) => guard.refusal(scope, legs),
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
  const paper = createPaperHost({ dataDir, secrets, profiles, logger, start: ports.startPaperGateway });
  const clients = createGatewayClients({
    secrets,
    profiles,
    storage,
    paper,
    gatewayMode,
    clock,
    fetch: ports.fetch,
    tuning: ports.gateway,
  });
  const updateTray = trayUpdater({
    tray: ports.tray,
    alerts,
    gatewayMode,
    session: () => sessions.current(),
    locked: () => {
      const id = sessions.current()?.profile.id;
      return id === undefined ? undefined : guard.lockWords(id);
    },
  });
  const adoption = createInterruptedAdoption({
    journal,
    clock,
    logger,
    emit,
    alerts,
    run: () => ({
      started: sessions.started(),
      startedAt: sessions.startedAt(),
      session: sessions.current(),
      gttSettler: sessions.gttSettler(),
    }),
  });
  const sessions = createSessions({
    ports,
    clock,
    emit,
    logger,
    journal,
    seen,
    settings,
    profiles,
    secrets,
    risk,
    lastPrices,
    market,
    gatewayMode,
    alerts,
    clients,
    adoption,
    updateTray,
    feed: createSessionFeed({
      enabled: ports.feeds !== false,
      retryBaseMs: ports.feedRetryBaseMs,
      paper,
      secrets,
      profiles,
      gatewayMode,
      market,
      clock,
      logger,
    }),
  });
  const unsubscribe: (() => void)[] = [];
  // The router is made below; brackets and the guard call it only once orders flow.
  const protection = wireProtection({
    router: () => router,
    activeProfileId: () => sessions.current()?.profile.id,
    pollNow: () => sessions.pollNow(),
    dataDir,
    clock,
    logger,
    notifier: ports.notifier,
    emit,
    market,
  });
  // Options strategies: their legs and exits go through the router too (made below).
  const strategies = wireStrategies({
    router: () => router,
    session: () => sessions.current(),
    pollNow: () => sessions.pollNow(),
    dataDir,
    clock,
    logger,
    notifier: ports.notifier,
    emit,
    market,
    journal,
  });
  const guard: GuardService = wireGuard({
    router: () => router,
    rules: (profileId) => settings.get().guard[profileId],
    session: () => sessions.current(),
    dataDir,
    clock,
    emit,
    logger,
    alerts,
    journal,
    market,
  });

  const inner = createRouter(
    {
      ...orderHandlers({
        session: sessions.require,
        journal,
        risk,
        daily: createDailyLimits(clock),
        limits: () => settings.get().risk,
        clock,
        emit,
        logger,
        alertGroup: (title) => alerts.sendGroup(title),
      }),
      ...gttHandlers({
        session: sessions.require,
        journal,
        risk,
        clock,
        emit,
        logger,
        settler: (s) => {
          const settler = sessions.gttSettler();
          if (settler?.profileId !== s.profile.id) throw new Error('no GTT settler for this profile');
          return settler;
        },
      }),
      ...marketHandlers({ market }),
      ...protectionHandlers({ session: sessions.require, protection }),
      ...strategyHandlers({ session: sessions.require, strategies }),
      ...guardHandlers({ session: sessions.require, guard }),
      ...readHandlers({ session: sessions.require }),
      ...serviceHandlers({
        session: sessions.require,
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
            if (await storage.paperStarts(() => paper.ensure())) await sessions.reopenIfPaper();
          }),
        ...(ports.chooseSavePath ? { chooseSavePath: ports.chooseSavePath } : {}),
        testKey: sessions.testKey,
        setVisibility: sessions.setVisibility,
        keyChanged: sessions.keyChanged,
      }),
    },
    { logger, redact: scrub },
  );
  const router = sessionRouter(inner, sessions, storage);

  function wire(): void {
    unsubscribe.push(
      // Only the active profile's events alert (a switch stops the old watcher, but not its last poll).
      ...wireAlerts({ bus, alerts, activeProfileId: () => sessions.current()?.profile.id }),
      bus.on('books.orders', (e) => {
        guard.onOrders(e.profileId, e.view.orders);
        void protection.onOrders(e.profileId, e.view.orders);
        void strategies.onBooks(e.profileId);
      }),
      bus.on('books.trades', (e) => void strategies.onBooks(e.profileId)),
      bus.on('orders.reconciled', (e) => void strategies.onReconciled(e)),
      bus.on('books.positions', (e) => {
        guard.onPositions(e.profileId, e.view.positions);
        void strategies.onBooks(e.profileId);
      }),
      bus.on('books.funds', (e) => guard.onFunds(e.profileId, e.view.realisedMtm)),
      bus.on('market.ltp', (e) => {
        lastPrices.record(e.profileId, e, e.ltp, e.time);
        guard.onPrice(e.profileId, e.symbol, e.exchange, e.ltp);
        void protection.onPrice(e.profileId, e.symbol, e.exchange, e.ltp);
        void strategies.onPrice(e.profileId, e.symbol, e.exchange, e.ltp);
      }),
      bus.on('market.quote', (e) => {
        lastPrices.record(e.profileId, e, e.ltp, e.time);
        guard.onPrice(e.profileId, e.symbol, e.exchange, e.ltp);
        void strategies.onPrice(e.profileId, e.symbol, e.exchange, e.ltp);
      }),
      // New rules, another profile: the guard judges again and shows the active one.
      bus.on('settings.changed', () => guard.refresh()),
      bus.on('profiles.switched', () => guard.refresh()),
      bus.on('market.depth', (e) => lastPrices.record(e.profileId, e, e.ltp, e.time)),
      ...wireTray(bus, updateTray),
      ...sessions.wire(bus),
    );
  }

  return {
    router,
    events: { on: bus.on, onAny: bus.onAny },
    async start() {
      if (sessions.started()) return;
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
      await sessions.start(ports.profile ?? profiles.active());
      // First start on paper: the default watchlist gets the near NIFTY future from its master.
      if (ports.firstWatchlist && sessions.current()?.profile.kind === 'paper')
        await seedFirstWatchlist({
          settings,
          search: (input) => sessions.require().client.search(input),
          now: () => clock.now(),
          logger,
        }).catch((err: unknown) =>
          logger.warn('the first watchlist has no NIFTY future', { reason: errorMessage(err) }),
        );
    },
    async stop() {
      guard.stop();
      sessions.halt();
      for (const u of unsubscribe.splice(0)) u();
      await sessions.close();
      await paper.stop();
      // What the strategies hold now is on disk before the core goes (a lost answer's note too).
      await strategies.flush();
      journal.close();
      seen.close();
    },
    pollNow: () => sessions.pollNow(),
  };
}
