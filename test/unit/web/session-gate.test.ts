// The one-time token and the session cookie it buys.
import { describe, expect, it } from 'vitest';
import { cookieValues, createSessionGate } from '../../../src-main/web/session-gate.js';

function sessionOf(setCookie: string): string {
  return setCookie.split(';')[0]!;
}

describe('session gate', () => {
  it('the token buys one HttpOnly, SameSite=Strict session cookie named for the port', () => {
    const gate = createSessionGate(7740);
    expect(gate.token).toMatch(/^[\w-]{43}$/);
    const setCookie = gate.exchange(gate.token);
    expect(setCookie).toMatch(/^orderdesk_session_7740=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(gate.admits(sessionOf(setCookie!))).toBe(true);
  });

  it('the token works once: a second exchange gets nothing, and the first session stays valid', () => {
    const gate = createSessionGate(7740);
    const first = gate.exchange(gate.token)!;
    expect(gate.exchange(gate.token)).toBeUndefined();
    expect(gate.admits(sessionOf(first))).toBe(true);
  });

  it('a wrong token (or a prefix of the right one) gets nothing and does not spend the token', () => {
    const gate = createSessionGate(7740);
    expect(gate.exchange('wrong')).toBeUndefined();
    expect(gate.exchange(gate.token.slice(0, -1))).toBeUndefined();
    expect(gate.exchange('')).toBeUndefined();
    expect(gate.exchange(gate.token)).toBeDefined();
  });

  it('admits only the issued value under its own name', () => {
    const gate = createSessionGate(7740);
    expect(gate.admits(undefined)).toBe(false);
    // Before any exchange not even an empty cookie passes.
    expect(gate.admits('orderdesk_session_7740=')).toBe(false);
    const value = sessionOf(gate.exchange(gate.token)!).split('=')[1]!;
    expect(gate.admits(`orderdesk_session_7740=${value}x`)).toBe(false);
    expect(gate.admits(`orderdesk_session_7741=${value}`)).toBe(false);
    expect(gate.admits(`theme=dark; orderdesk_session_7740=${value}; other=1`)).toBe(true);
  });

  it('a cookie of the same name planted ahead of the real one does not lock the session out', () => {
    // Browsers share 127.0.0.1 cookies across ports: a page on another loopback port can set one
    // named for this port, and a browser may send it before the real one.
    const gate = createSessionGate(7740);
    const real = sessionOf(gate.exchange(gate.token)!);
    expect(gate.admits(`orderdesk_session_7740=planted; ${real}`)).toBe(true);
    expect(gate.admits(`orderdesk_session_7740=; theme=dark; ${real}; orderdesk_session_7740=x`)).toBe(true);
    // Only bogus ones: still refused.
    expect(gate.admits('orderdesk_session_7740=planted; orderdesk_session_7740=other')).toBe(false);
  });

  it('tokens and sessions are random per gate', () => {
    const a = createSessionGate(1);
    const b = createSessionGate(1);
    expect(a.token).not.toBe(b.token);
    expect(b.exchange(a.token)).toBeUndefined();
  });
});

describe('cookieValues', () => {
  it('finds every value of a cookie among others, trimmed and in order; none when absent', () => {
    expect(cookieValues('a=1; b = 2 ;c=3', 'b')).toEqual(['2']);
    expect(cookieValues('b=1; a=0; b=2', 'b')).toEqual(['1', '2']);
    expect(cookieValues('a=1', 'b')).toEqual([]);
    expect(cookieValues(undefined, 'b')).toEqual([]);
    expect(cookieValues('ab=1', 'b')).toEqual([]);
    expect(cookieValues('b=x=y', 'b')).toEqual(['x=y']);
  });
});
