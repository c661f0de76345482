// The journal's queries and its CSV export.
import { describe, expect, it } from 'vitest';
import { createJournal, type Journal } from '../../../../src-main/core/journal/index.js';
import {
  advanceClock,
  clock,
  dbPath,
  journal,
  KEY,
  place,
  replaceJournal,
  setClock,
  T0,
  useJournal,
} from './journal-fixture.js';

useJournal();

describe('journal', () => {
  describe('queries', () => {
    function seed() {
      const rows: [number, string, string, unknown, 'ok' | 'error' | 'pending', unknown?][] = [
        [0, 'paper', 'placeorder', place, 'ok', { status: 'success', orderid: 'A1' }],
        [
          1000,
          'paper',
          'modifyorder',
          { ...place, orderid: 'A1', price: 812.4 },
          'ok',
          { status: 'success', orderid: 'A1' },
        ],
        [2000, 'broker-1', 'placeorder', place, 'error'],
        [
          3000,
          'paper',
          'cancelallorder',
          { apikey: KEY, strategy: 'Desk' },
          'ok',
          { status: 'success', canceled_orders: ['A1', 'B2'], failed_cancellations: [], message: '' },
        ],
        [4000, 'paper', 'placeorder', place, 'pending'],
      ];
      for (const [dt, profileId, operation, request, outcome, response] of rows) {
        setClock(T0 + dt);
        const { id } = journal.recordIntent({ profileId, operation, request });
        advanceClock(50);
        if (outcome === 'ok') journal.recordOutcome(id, { outcome, response });
        if (outcome === 'error')
          journal.recordOutcome(id, { outcome, error: { kind: 'rate_limited', message: 'slow down' } });
      }
    }
    const ops = (q: Parameters<Journal['query']>[0]) =>
      journal.query(q).map((e) => `${e.profileId}:${e.operation}`);

    it('newest first by default, oldest first on request, with limit and offset', () => {
      seed();
      expect(ops({})).toEqual([
        'paper:placeorder',
        'paper:cancelallorder',
        'broker-1:placeorder',
        'paper:modifyorder',
        'paper:placeorder',
      ]);
      expect(ops({ order: 'asc', limit: 2, offset: 1 })).toEqual([
        'paper:modifyorder',
        'broker-1:placeorder',
      ]);
    });

    it('by time range (from inclusive, to exclusive)', () => {
      seed();
      expect(ops({ from: T0 + 1000, to: T0 + 3000, order: 'asc' })).toEqual([
        'paper:modifyorder',
        'broker-1:placeorder',
      ]);
    });

    it('by profile and by operation', () => {
      seed();
      expect(ops({ profileId: 'broker-1' })).toEqual(['broker-1:placeorder']);
      expect(ops({ operation: 'placeorder', profileId: 'paper' })).toHaveLength(2);
    });

    it('by order id, from the request or the response', () => {
      seed();
      expect(ops({ orderId: 'A1', order: 'asc' })).toEqual([
        'paper:placeorder',
        'paper:modifyorder',
        'paper:cancelallorder',
      ]);
      expect(ops({ orderId: 'B2' })).toEqual(['paper:cancelallorder']);
    });

    it('by outcome', () => {
      seed();
      expect(ops({ outcome: 'error' })).toEqual(['broker-1:placeorder']);
      expect(ops({ outcome: 'pending' })).toEqual(['paper:placeorder']);
      expect(ops({ outcome: 'ok' })).toHaveLength(3);
    });

    it('rejects an invalid query', () => {
      expect(() => journal.query({ limit: 0 })).toThrow();
      expect(() => journal.query({ profileId: 'Bad Id' })).toThrow();
    });

    it('survives reopening', () => {
      seed();
      journal.close();
      replaceJournal(createJournal({ dbPath, clock }));
      expect(journal.query({})).toHaveLength(5);
    });
  });

  describe('CSV export', () => {
    it('has a header, IST timestamps, CRLF rows and RFC 4180 quoting', () => {
      const { id } = journal.recordIntent({
        profileId: 'paper',
        operation: 'placeorder',
        request: { symbol: 'M&M', tag: 'a,"b"' },
      });
      advanceClock(20);
      journal.recordOutcome(id, {
        outcome: 'error',
        error: { kind: 'bad_input', message: 'line one\nline "two", three', httpStatus: 400 },
      });
      const csv = journal.exportCsv();
      const [header, row, end] = csv.split('\r\n');
      expect(header).toBe(
        'time_ist,id,profile,operation,order_ids,outcome,duration_ms,error_kind,error_message,http_status,request,response,resolution',
      );
      expect(end).toBe('');
      expect(row).toBe(
        `2024-05-14T09:15:00.000+05:30,${id},paper,placeorder,,error,20,bad_input,"line one\nline ""two"", three",400,"{""symbol"":""M&M"",""tag"":""a,\\""b\\""""}",,`,
      );
    });

    it('neutralises spreadsheet formulas in text cells', () => {
      const { id } = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: {} });
      journal.recordOutcome(id, {
        outcome: 'error',
        error: { kind: 'server', message: '=HYPERLINK("http://x")' },
      });
      expect(journal.exportCsv()).toContain(`"'=HYPERLINK(""http://x"")"`);
    });

    it('follows the query and never contains the key', () => {
      const a = journal.recordIntent({ profileId: 'paper', operation: 'placeorder', request: place });
      journal.recordOutcome(a.id, { outcome: 'ok', response: { status: 'success', orderid: 'Z9' } });
      journal.recordIntent({ profileId: 'broker-1', operation: 'placeorder', request: place });
      const csv = journal.exportCsv({ profileId: 'paper' });
      expect(csv.split('\r\n')).toHaveLength(3);
      expect(csv).toContain('Z9');
      expect(csv).not.toContain(KEY);
    });
  });
});
