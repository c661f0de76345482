// The engine's transactions. Off: every mutation is its own SQLite transaction, committed before it
// returns. On (the HTTP gateway): the mutations of one event-loop turn each run in a savepoint of one
// shared transaction, committed by setImmediate, so a burst of requests shares one commit; callers
// must not answer before pending() settles.
import type { Ledger } from './ledger.js';

interface Group {
  done: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class GroupCommit {
  private group: Group | undefined;

  constructor(
    private readonly ledger: Ledger,
    private readonly grouped: boolean,
    /**
     * Told of every rollback, whose in-memory mirrors may then hold undone state: `wholeGroup` when
     * a group's commit failed and everything since the last commit is gone.
     */
    private readonly onRollback: (wholeGroup: boolean) => void,
    /** Told after a group's commit succeeded (the engine's order events go out then). */
    private readonly onCommit: () => void = () => undefined,
  ) {}

  /** Runs `fn` in a transaction (a savepoint inside an open group or an outer transaction). */
  transaction<T>(fn: () => T): T {
    if (this.grouped && !this.ledger.inTransaction) this.open();
    try {
      return this.ledger.transaction(fn);
    } catch (err) {
      this.onRollback(false);
      throw err;
    }
  }

  /** The commit of the open group (rejects if it fails); undefined when everything is committed. */
  pending(): Promise<void> | undefined {
    return this.group?.done;
  }

  /** Commits the open group now (no-op without one); on failure undoes it. */
  commit(): void {
    const g = this.group;
    if (!g) return;
    this.group = undefined;
    try {
      this.ledger.commit();
    } catch (err) {
      console.error('paper engine: group commit failed', err);
      this.ledger.rollback();
      this.onRollback(true);
      g.reject(err);
      return;
    }
    this.onCommit();
    g.resolve();
  }

  private open(): void {
    this.ledger.begin();
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Nobody may be waiting (a ticker pass); a failure is still logged by commit().
    done.catch(() => undefined);
    this.group = { done, resolve, reject };
    setImmediate(() => this.commit());
  }
}
