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
