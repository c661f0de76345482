import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redact } from '../../../src-main/gateway/index.js';

const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe('redact', () => {
  it('replaces the key anywhere in strings, nested objects and arrays', () => {
    const out = redact(
      {
        url: `http://x/api/v1/ticker/NSE:SBIN?apikey=${KEY}&interval=D`,
        nested: { list: [`key=${KEY}`, 3, null, true], text: `before ${KEY} after ${KEY}` },
      },
      [KEY],
    );
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(out.nested.text).toBe(`before ${REDACTED} after ${REDACTED}`);
    expect(out.nested.list).toEqual([`key=${REDACTED}`, 3, null, true]);
    expect(out.url).toBe(`http://x/api/v1/ticker/NSE:SBIN?apikey=${REDACTED}&interval=D`);
  });

  it('blanks apikey, X-API-KEY and Authorization fields whatever their value', () => {
    const out = redact(
      {
        apikey: 'other-key',
        headers: { 'X-API-KEY': 'x', authorization: 'Bearer y', accept: 'json' },
        api_key: 1,
      },
      [],
    );
    expect(out).toEqual({
      apikey: REDACTED,
      headers: { 'X-API-KEY': REDACTED, authorization: REDACTED, accept: 'json' },
      api_key: REDACTED,
    });
  });

  it('handles Headers, Maps, Errors and cycles', () => {
    const headers = new Headers({ 'x-api-key': KEY, 'content-type': 'application/json' });
    const err = new Error(`failed for ${KEY}`, { cause: { apikey: KEY } });
    const cyclic: Record<string, unknown> = { name: KEY };
    cyclic.self = cyclic;
    const out = redact({ headers, map: new Map([['apikey', KEY]]), err, cyclic }, [KEY]) as unknown;
    const seen = new WeakSet();
    const text = JSON.stringify(out, (_k, v: unknown) => {
      if (v instanceof Map) return Object.fromEntries(v);
      if (v && typeof v === 'object') {
        if (seen.has(v)) return '[cycle]';
        seen.add(v);
      }
      return v;
    });
    expect(text).not.toContain(KEY);
    expect(text).toContain('content-type');
    expect(text).toContain(`failed for ${REDACTED}`);
  });

  it('does not change the input', () => {
    const input = { apikey: KEY, s: KEY };
    redact(input, [KEY]);
    expect(input).toEqual({ apikey: KEY, s: KEY });
  });

  it('never leaves the secret in any string that contains it', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string({ minLength: 8 }), (a, b, secret) => {
        const out = redact(`${a}${secret}${b}`, [secret]);
        // Removing the marker must not be able to recreate the secret either.
        expect(out.split(REDACTED).every((part) => !part.includes(secret))).toBe(true);
      }),
    );
  });

  it('removes the key in any letter case, and any run of 12 or more of its characters', () => {
    const key = `${KEY}${'F00DBABE'.repeat(4)}`; // 64 characters, letters in both cases
    const out = redact(
      {
        upper: `Invalid apikey ${key.toUpperCase()}`,
        prefix: `accepted for ${key.slice(0, 40)}…`,
        middle: `x${key.slice(20, 32).toLowerCase()}y`,
        mixed: `${key.slice(5, 25).toUpperCase()}${key.slice(25, 45)}`,
        eleven: `ok ${key.slice(3, 14)} ok`,
      },
      [key],
    );
    expect(out).toEqual({
      upper: `Invalid apikey ${REDACTED}`,
      prefix: `accepted for ${REDACTED}…`,
      middle: `x${REDACTED}y`,
      mixed: REDACTED,
      // Fewer than 12 characters of the key is not the key.
      eleven: `ok ${key.slice(3, 14)} ok`,
    });
  });

  it('a key shorter than 12 characters is removed whole, in any case', () => {
    expect(redact('a SHORTKEY9 b shortkey9', ['ShortKey9'])).toBe(`a ${REDACTED} b ${REDACTED}`);
  });

  it('redacts a 1 MB answer quickly (prints the time)', () => {
    const key = `${KEY}${'f00dbabe'.repeat(4)}`;
    const orders = Array.from({ length: 5000 }, (_, i) => ({
      orderid: String(25112800000000 + i),
      symbol: i % 2 ? 'RELIANCE' : 'NIFTY25NOV25900CE',
      exchange: 'NSE',
      action: 'BUY',
      quantity: '75',
      price: '1234.50',
      status: 'complete',
      timestamp: '28-Nov-2025 10:15:42',
      strategy: 'OrderDesk',
      rejection_reason: i === 4999 ? `bad key ${key.slice(0, 40).toUpperCase()}` : '',
    }));
    const answer = { status: 'success', data: { orders } };
    const size = JSON.stringify(answer).length;
    expect(size).toBeGreaterThan(1_000_000);
    redact(answer, [key]); // warm-up
    const t0 = performance.now();
    const out = redact(answer, [key]);
    const ms = performance.now() - t0;
    console.log(`redact: ${(size / 1e6).toFixed(2)} MB answer in ${ms.toFixed(1)} ms`);
    expect(out.data.orders[4999]?.rejection_reason).toBe(`bad key ${REDACTED}`);
    // Generous for a loaded CI machine; a per-window rescan of the whole text would take seconds.
    expect(ms).toBeLessThan(500);
  });
});
