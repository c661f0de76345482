// Composite order operations end to end, the analyzer mode and resets of the books: real HTTP, the
// real engine over SQLite, ManualClock prices. Positions are set up with real orders first, then
// the composite call, then the books are checked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../../src-main/paper/auth/key-store.js';
import { resetPaperBooks } from '../../../src-main/paper/engine/extension.js';
import { checkLedgerInvariants } from '../../../src-main/paper/engine/ledger-invariants.js';
import { startTestGateway } from '../../support/paper-gateway.js';
import { useCompositeGateway } from './composite-fixture.js';

const { gw, market, strategyQty, modeVersion } = useCompositeGateway();

describe('analyzer', () => {
  it('counts the account orders and reports the mode snapshot', async () => {
    const key = gw.newKey();
    await market(key, 'BUY', 1);
    const r = await gw.api('analyzer', key, {});
    expect(r.body).toEqual({
      status: 'success',
      data: {
        analyze_mode: true,
        mode: 'analyze',
        total_logs: 1,
        balance_type: 'sandbox',
        mode_version: gw.engine.mode().mode_version,
      },
    });
  });
});

// Runs last in this file: a reset clears every account of the shared gateway.
describe('mode switch after a reset', () => {
  it('a stale expected_mode_version gets SERVER_MODE_SWITCH_DETECTED with the current values', async () => {
    const key = gw.newKey();
    const stale = await modeVersion(key);
    gw.engine.reset();
    await market(key, 'BUY', 10, 'A');
    const r = await gw.api('closeposition', key, {
      strategy: 'A',
      expected_mode: 'analyze',
      expected_balance_type: 'sandbox',
      expected_mode_version: stale,
      request_id: 'after-reset',
    });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      status: 'error',
      message: 'Server mode switch detected',
      error_code: 'SERVER_MODE_SWITCH_DETECTED',
      mode: 'analyze',
      balance_type: 'sandbox',
      mode_version: stale + 1,
    });
    expect(await strategyQty(key, 'A')).toBe(10);
    expect(checkLedgerInvariants(gw.engine.ledger.db)).toEqual([]);
  });
});

describe('--reset between runs (the CLI path)', () => {
  it('restarts with empty books and a bumped mode version', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paper-composite-'));
    const apiKey = generateApiKey();
    try {
      const run1 = await startTestGateway({ dataDir, apiKey });
      const v1 = (
        (await run1.post('/api/v1/analyzer', { apikey: apiKey })).body.data as { mode_version: number }
      ).mode_version;
      await run1.post('/api/v1/placeorder', {
        apikey: apiKey,
        strategy: 'A',
        exchange: 'NSE',
        symbol: 'SBIN',
        action: 'BUY',
        quantity: 1,
      });
      await run1.stop();

      resetPaperBooks(dataDir);

      const run2 = await startTestGateway({ dataDir, apiKey });
      try {
        const data = (await run2.post('/api/v1/analyzer', { apikey: apiKey })).body.data;
        expect(data).toMatchObject({ total_logs: 0, mode_version: v1 + 1 });
        const r = await run2.post('/api/v1/closeposition', {
          apikey: apiKey,
          strategy: 'A',
          expected_mode: 'analyze',
          expected_balance_type: 'sandbox',
          expected_mode_version: v1,
          request_id: 'r',
        });
        expect(r.status).toBe(409);
        expect(r.body).toMatchObject({ error_code: 'SERVER_MODE_SWITCH_DETECTED', mode_version: v1 + 1 });
      } finally {
        await run2.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
