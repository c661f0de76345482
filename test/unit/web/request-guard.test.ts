// Host (DNS rebinding), Origin and session checks of the web host.
import { describe, expect, it } from 'vitest';
import {
  checkHost,
  checkOrigin,
  checkUpgrade,
  hostHeaderOf,
  originOf,
  readTarget,
} from '../../../src-main/web/request-guard.js';

const A = { host: '127.0.0.1', port: 7740 };

describe('checkHost', () => {
  it('passes only the exact address and port it serves (host names are case-insensitive)', () => {
    expect(checkHost('127.0.0.1:7740', A)).toBeUndefined();
    for (const bad of [
      undefined,
      '',
      'localhost:7740',
      '127.0.0.1',
      '127.0.0.1:7741',
      'evil.example:7740',
      '127.0.0.1.evil.example:7740',
      '[::1]:7740',
    ])
      expect(checkHost(bad, A), String(bad)).toMatchObject({ reason: 'foreign_host', status: 421 });
  });

  it('writes the header as browsers do: no port for 80, brackets for IPv6', () => {
    expect(hostHeaderOf({ host: '127.0.0.1', port: 80 })).toBe('127.0.0.1');
    expect(hostHeaderOf({ host: '::1', port: 7740 })).toBe('[::1]:7740');
    expect(checkHost('[::1]:7740', { host: '::1', port: 7740 })).toBeUndefined();
    expect(originOf(A)).toBe('http://127.0.0.1:7740');
  });
});

describe('checkOrigin', () => {
  it('passes only the page this host serves; a missing or opaque origin is refused', () => {
    expect(checkOrigin('http://127.0.0.1:7740', A)).toBeUndefined();
    for (const bad of [
      undefined,
      'null',
      'https://127.0.0.1:7740',
      'http://localhost:7740',
      'http://127.0.0.1:7741',
      'http://evil.example',
      'file://',
    ])
      expect(checkOrigin(bad, A), String(bad)).toMatchObject({ reason: 'foreign_origin', status: 403 });
  });
});

describe('checkUpgrade', () => {
  const good = { host: '127.0.0.1:7740', origin: 'http://127.0.0.1:7740', cookie: 's=1' };
  const admits = (c: string | undefined) => c === 's=1';

  it('admits the page with its session', () => {
    expect(checkUpgrade(good, A, admits)).toBeUndefined();
  });

  it('refuses a foreign Host first, then a foreign Origin, then a missing session', () => {
    expect(checkUpgrade({ ...good, host: 'evil.example:7740', origin: 'x' }, A, admits)?.reason).toBe(
      'foreign_host',
    );
    expect(
      checkUpgrade({ ...good, origin: 'http://evil.example', cookie: undefined }, A, admits)?.reason,
    ).toBe('foreign_origin');
    expect(checkUpgrade({ ...good, cookie: undefined }, A, admits)).toMatchObject({
      reason: 'no_session',
      status: 401,
    });
    expect(checkUpgrade({ ...good, cookie: 's=2' }, A, admits)?.reason).toBe('no_session');
  });
});

describe('readTarget', () => {
  it('reads origin-form targets: path and query', () => {
    const t = readTarget('/assets/app.js?token=abc');
    expect(t?.pathname).toBe('/assets/app.js');
    expect(t?.searchParams.get('token')).toBe('abc');
    expect(readTarget('/')?.pathname).toBe('/');
  });

  it('refuses anything that could name another host, or is not a path', () => {
    for (const raw of [
      undefined,
      '',
      '*',
      '//',
      '///',
      '//evil.example/x',
      '/\\evil.example',
      'http://evil/',
    ])
      expect(readTarget(raw), String(raw)).toBeUndefined();
  });
});
