// The core's ports: everything it needs from the outside world, as interfaces. The Electron shell
// (or the browser-mode host, or a test) provides them; the core never imports Electron.
import type { TrayStateEvent } from '../contract/index.js';

/** A key/value secret backend keyed by account name (the profile id). */
export interface SecretBackend {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when something was deleted. */
  delete(account: string): Promise<boolean>;
}

/** Electron's `safeStorage`, as the shell hands it over. */
export interface SafeStoragePort {
  isEncryptionAvailable(): boolean;
  /** Linux only: 'basic_text' means a hard-coded password, i.e. not secure. */
  getSelectedStorageBackend?(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** The program's one Clock (contract/clock.ts); parts that only read the time take `Pick<Clock, 'now'>`. */
export { systemClock, type Clock } from '../contract/clock.js';

export interface Paths {
  /** Per-user data directory (Electron `userData`); the core keeps its files here. */
  dataDir: string;
}

export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Implementations must redact: the current API key values, `apikey`/`Authorization`/`X-API-KEY`
 * fields. `createRedactingLogger` (core/secrets) wraps any logger to do so.
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export type NotificationKind = 'fill' | 'partial' | 'rejection' | 'cancellation' | 'info' | 'warning';

/** OS notifications (desktop adapter). */
export interface Notifier {
  /**
   * `orderid` lets the shell replace an order's earlier toast (partial → fill) and open the window at
   * that order on a click; `sticky` keeps it until dismissed.
   */
  notify(n: {
    kind: NotificationKind;
    title: string;
    body: string;
    id?: string;
    orderid?: string;
    sticky?: boolean;
  }): void;
}

export type TrayState = TrayStateEvent['state'];

/** The tray icon and tooltip (desktop adapter; browser mode forwards it as the `tray.state` event). */
export interface TraySink {
  update(s: TrayStateEvent): void;
}

/**
 * Asks the user where to save a file (Electron: a save dialog; browser mode: its own way), offering
 * `suggestedName`. Answers an absolute path, or null when the user cancelled.
 */
export type ChooseSavePath = (suggestedName: string) => Promise<string | null>;
