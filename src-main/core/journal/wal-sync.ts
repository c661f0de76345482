// Makes the journal's commits power-cut safe off the event loop. The journal commits with
// synchronous=NORMAL: a commit is written into the WAL file before it returns, so a crash or kill of
// OrderDesk loses nothing, but the disk's flush (1–10 ms) is not waited for. This fsyncs the WAL on
// libuv's thread pool instead, so an intent's flush runs while its order travels rather than before
// it; journaled() holds the order's answer until its intent's flush is done.
import { close, closeSync, fsync, openSync } from 'node:fs';

export interface WalSync {
  /** Resolves once every commit made before the call is on disk; rejects with the fsync's error. */
  sync(): Promise<void>;
  /** Releases the file; a flush still running closes it when done. Later syncs resolve at once. */
  close(): void;
}

/**
 * Opens the WAL beside `dbPath` (it exists while SQLite has the database open in WAL mode);
 * undefined when it cannot be opened, and the caller keeps SQLite's own synchronous=FULL then.
 * Opened for writing because Windows flushes only handles that may write; nothing is written to it.
 */
export function openWalSync(dbPath: string): WalSync | undefined {
  let fd: number;
  try {
    fd = openSync(`${dbPath}-wal`, 'r+');
  } catch {
    return undefined;
  }
  let running = 0;
  let closed = false;
  const release = () => {
    if (closed && running === 0 && fd >= 0) {
      const f = fd;
      fd = -1;
      close(f, () => undefined);
    }
  };
  return {
    sync() {
      // After close the database has been closed, and SQLite checkpoints and syncs on close.
      if (closed) return Promise.resolve();
      running++;
      return new Promise<void>((resolve, reject) =>
        fsync(fd, (err) => {
          running--;
          release();
          if (err) reject(err);
          else resolve();
        }),
      );
    },
    close() {
      if (closed) return;
      closed = true;
      if (running === 0) {
        closeSync(fd);
        fd = -1;
      }
    },
  };
}

export interface TurnFlush {
  /** Every commit is flushed in the background, whether or not anyone waits. */
  soon(): void;
  /** Resolves once every commit made so far is on disk (at once without a WAL to flush). */
  durable(): Promise<void>;
}

/**
 * This turn's flush: one fsync for every commit made so far, started once the turn is over. By then
 * an order whose intent was just committed has been written to its socket (the client sends it in
 * the same turn), so waking the thread pool for the flush is not on the order's way out.
 */
export function createTurnFlush(wal: WalSync | undefined, onSyncError: (err: unknown) => void): TurnFlush {
  let turnFlush: { done: Promise<void>; waited(): void } | undefined;
  function flushAfterTurn(sync: WalSync): NonNullable<typeof turnFlush> {
    if (turnFlush) return turnFlush;
    // A failed flush somebody waits for is theirs to report; one nobody waits for is reported here.
    let waitedFor = false;
    const done = new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        turnFlush = undefined;
        sync.sync().then(resolve, (err: unknown) => {
          if (!waitedFor) onSyncError(err);
          reject(err);
        });
      }),
    );
    done.catch(() => undefined);
    turnFlush = { done, waited: () => (waitedFor = true) };
    return turnFlush;
  }
  return {
    soon() {
      if (wal) flushAfterTurn(wal);
    },
    durable() {
      if (!wal) return Promise.resolve();
      const flush = flushAfterTurn(wal);
      flush.waited();
      return flush.done;
    },
  };
}
