// The reducing-quantity rule in isolation, and a ledger from before the `claimed` and `request`
// columns opening.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LEDGER_FILE, Ledger } from '../../../src-main/paper/engine/ledger.js';
import { LEDGER_SCHEMA_VERSION } from '../../../src-main/paper/engine/ledger-schema.js';
import { reducingQuantity } from '../../../src-main/paper/engine/margin.js';

describe('reducingQuantity', () => {
  it('reduces only an opposite position, and only what others have not claimed', () => {
    expect(reducingQuantity(true, 100, -50_000, 0)).toBe(100);
    expect(reducingQuantity(true, 50_000, -50_000, 0)).toBe(50_000);
    expect(reducingQuantity(true, 50_000, -50_000, 50_000)).toBe(0);
    expect(reducingQuantity(true, 70, -100, 60)).toBe(40);
    expect(reducingQuantity(false, 70, 100, 60)).toBe(40);
    // Same side or flat: nothing reduces.
    expect(reducingQuantity(true, 10, 100, 0)).toBe(0);
    expect(reducingQuantity(false, 10, -100, 0)).toBe(0);
    expect(reducingQuantity(true, 10, 0, 0)).toBe(0);
  });
});

describe('ledger migration', () => {
  it('adds the claimed and request columns to a ledger created without them, keeping its rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-claims-'));
    try {
      new Ledger(dir).close();
      const db = new Database(join(dir, LEDGER_FILE));
      db.exec('ALTER TABLE orders DROP COLUMN claimed');
      db.exec('ALTER TABLE responses DROP COLUMN request');
      db.exec(`INSERT INTO responses(account, request_id, body, created_ms) VALUES ('a', 'r1', '{}', 0)`);
      db.exec(`INSERT INTO orders(orderid, account, strategy, exchange, symbol, action, quantity, pricetype,
        product, price, trigger_price, disclosed_quantity, status, filled_quantity, fill_value,
        rejection_reason, margin_blocked, created_ms, updated_ms)
        VALUES ('1', 'a', 's', 'NSE', 'SBIN', 'BUY', 5, 'LIMIT', 'MIS', 1, 0, 0, 'open', 0, 0, '', 1, 0, 0)`);
      db.prepare(`UPDATE meta SET value = '2' WHERE key = 'schema_version'`).run();
      db.close();

      const ledger = new Ledger(dir);
      try {
        expect(ledger.order('a', '1')).toMatchObject({ orderid: '1', claimed: 0, quantity: 5 });
        expect(ledger.meta('schema_version')).toBe(String(LEDGER_SCHEMA_VERSION));
        // A remembered answer from before: kept, with no request to compare (never replayed).
        expect(ledger.response('a', 'r1')).toEqual({ request: '', body: '{}' });
      } finally {
        ledger.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
