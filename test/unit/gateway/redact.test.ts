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
});
