// What a shell hands createCore: the ports (paths, logger, notifier, tray), the paper gateway's
// starter, and the tuning tests use. The core knows nothing of Electron or of the paper gateway.
import type { Profile } from '../contract/index.js';
import type { Clock, FetchFn, GatewayClientOptions } from '../gateway/index.js';
import type { ChooseSavePath, Logger, Notifier, Paths, SafeStoragePort, TraySink } from './ports.js';
import type { KeytarLoader, SecretStore } from './secrets/index.js';
import type { Patience, SeenStore } from './watcher/index.js';

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
  /**
   * The desk's first start on paper adds the near NIFTY future to the default watchlist (the desktop
   * and browser-mode hosts; a CLI run or a test core asks the gateway nothing it did not ask for).
   */
  firstWatchlist?: boolean;
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
