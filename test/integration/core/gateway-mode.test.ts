// The desk knows what it talks to: a gateway profile whose gateway reports analyze mode (its
// /api/v1/analyzer, or `mode: "analyze"` on an answer) is a sandbox, not real money; a trader can mark
// one sandbox by hand; the session says whether the feed streams or the desk polls. Against the real
// paper gateway (a sandbox: its analyzer says analyze mode) and small loopback gateways that answer
// as a live server would.
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '../../../src-main/contract/index.js';
import { startEchoGateway, type EchoAnswer, type EchoGateway } from '../../support/echo-gateway.js';
import { startCore, until, usePaper, type Harness } from '../../support/core-harness.js';

const paper = usePaper();
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const freshKey = (tag: string) => `${tag}-${'0123456789abcdef'.repeat(3)}`;

async function snap(h: Harness): Promise<SessionSnapshot> {
  const r = await h.core.router.invoke('session.snapshot');
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

/** The snapshot once `cond` holds of it, or the last one after ~3 s (the test's expect says why). */
async function snapWhen(h: Harness, cond: (s: SessionSnapshot) => boolean): Promise<SessionSnapshot> {
  let s = await snap(h);
  for (let i = 0; i < 150 && !cond(s); i++) {
    await new Promise((r) => setTimeout(r, 20));
    s = await snap(h);
  }
  return s;
}

async function core(): Promise<Harness> {
  const h = await startCore(paper);
  stops.push(() => h.stop());
  return h;
}

async function echo(answer: (path: string) => EchoAnswer): Promise<EchoGateway> {
  const gw = await startEchoGateway((r) => answer(r.url.split('?')[0] ?? ''));
  stops.push(() => gw.stop());
  return gw;
}

/** Adds a gateway profile with a key and makes it the active one. */
async function useProfile(h: Harness, profile: Record<string, unknown> & { id: string }, key: string) {
  const added = await h.core.router.invoke('profiles.add', { name: 'Gateway', ...profile } as never);
  expect(added.ok, JSON.stringify(added)).toBe(true);
  await h.core.router.invoke('apiKey.set', { profileId: profile.id, key });
  await h.core.router.invoke('profiles.switch', { id: profile.id });
}

const LIVE_ANALYZER: EchoAnswer = {
  status: 200,
  json: { status: 'success', data: { analyze_mode: false, mode: 'live', total_logs: 0 } },
};
const EMPTY: EchoAnswer = { status: 200, json: { status: 'success', data: {} } };

describe('the profile mode: live, sandbox or paper', () => {
  it('a gateway profile pointed at the paper gateway reports SANDBOX: its analyzer says analyze mode', async () => {
    const h = await core();
    const key = freshKey('sandbox-a');
    paper.gw.gateway.keys.add(key);
    await useProfile(h, { id: 'openalgo-sbx', baseUrl: paper.proxy.url }, key);
    const s = await snapWhen(h, (x) => x.mode === 'sandbox');
    expect(s.mode).toBe('sandbox');
    expect(s.modeWhy).toMatch(/analyze mode/i);
    expect(h.urls.some((u) => u.endsWith('/api/v1/analyzer'))).toBe(true);
    expect(h.of('session.gateway').at(-1)).toMatchObject({ profileId: 'openalgo-sbx', mode: 'sandbox' });
    // The tray draws it as simulated money too, not as live.
    await until(() => (h.trays.at(-1) as { mode?: string } | undefined)?.mode === 'sandbox');
    // The embedded paper profile stays PAPER.
    await h.core.router.invoke('profiles.switch', { id: 'paper' });
    expect((await snapWhen(h, (x) => x.profile.id === 'paper')).mode).toBe('paper');
  });

  it('a gateway whose analyzer says live is LIVE, even marked sandbox by hand: its word wins', async () => {
    const h = await core();
    const gw = await echo((path) => (path === '/api/v1/analyzer' ? LIVE_ANALYZER : EMPTY));
    await useProfile(h, { id: 'broker', baseUrl: gw.url }, freshKey('live-b'));
    await until(() => gw.received.some((r) => r.url === '/api/v1/analyzer'));
    const live = await snapWhen(h, (x) => x.modeWhy === 'the gateway reports live mode: real money');
    expect(live.mode).toBe('live');
    expect(live.modeWhy).toBe('the gateway reports live mode: real money');

    const marked = await h.core.router.invoke('profiles.update', {
      id: 'broker',
      changes: { sandbox: true },
    });
    expect(marked.ok, JSON.stringify(marked)).toBe(true);
    const s = await snapWhen(h, (x) => x.profile.sandbox === true && /marked/.test(x.modeWhy ?? ''));
    expect(s.mode).toBe('live');
    expect(s.modeWhy).toBe('marked sandbox, but the gateway reports live mode: real money');
  });

  it('a gateway without an analyzer marked sandbox by hand shows SANDBOX; unmarked, LIVE', async () => {
    const h = await core();
    const gw = await echo((path) =>
      path === '/api/v1/analyzer'
        ? { status: 404, json: { status: 'error', message: 'Not found', path } }
        : EMPTY,
    );
    await useProfile(h, { id: 'plain', baseUrl: gw.url }, freshKey('hand-b'));
    await until(() => gw.received.some((r) => r.url === '/api/v1/analyzer'));
    const live = await snapWhen(h, (x) => x.profile.id === 'plain' && x.modeWhy !== undefined);
    expect(live.mode).toBe('live');
    expect(live.modeWhy).toMatch(/real money/i);

    const marked = await h.core.router.invoke('profiles.update', { id: 'plain', changes: { sandbox: true } });
    expect(marked.ok, JSON.stringify(marked)).toBe(true);
    const s = await snapWhen(h, (x) => x.mode === 'sandbox');
    expect(s.mode).toBe('sandbox');
    expect(s.modeWhy).toMatch(/marked sandbox/i);
    expect(h.of('session.gateway').at(-1)).toMatchObject({ profileId: 'plain', mode: 'sandbox' });
    const unmarked = await h.core.router.invoke('profiles.update', {
      id: 'plain',
      changes: { sandbox: false },
    });
    expect(unmarked.ok).toBe(true);
    expect((await snapWhen(h, (x) => x.mode === 'live')).mode).toBe('live');
  });

  it('an answer carrying mode "analyze" makes it SANDBOX where the analyzer is not offered', async () => {
    const h = await core();
    const gw = await echo((path) =>
      path === '/api/v1/analyzer'
        ? { status: 404, json: { status: 'error', message: 'Not found', path } }
        : { status: 200, json: { status: 'success', mode: 'analyze', data: {} } },
    );
    await useProfile(h, { id: 'router-imc', baseUrl: gw.url }, freshKey('answer-c'));
    await h.core.pollNow();
    const s = await snapWhen(h, (x) => x.mode === 'sandbox');
    expect(s.mode).toBe('sandbox');
    expect(s.modeWhy).toMatch(/analyze/i);
  });

  it('a profile can be added marked sandbox', async () => {
    const h = await core();
    const gw = await echo(() => EMPTY);
    await useProfile(h, { id: 'sbx-by-hand', baseUrl: gw.url, sandbox: true }, freshKey('hand-d'));
    const s = await snapWhen(h, (x) => x.profile.id === 'sbx-by-hand');
    expect(s.mode).toBe('sandbox');
    expect(s.profile.sandbox).toBe(true);
  });
});

describe('the feed: streaming or polling, and the feed URL', () => {
  it('says streaming once the profile feed is live, and polling (with why) when there is none', async () => {
    const h = await core();
    // The harness's embedded gateway offers no feed: the paper profile polls.
    const paperSnap = await snapWhen(h, (x) => x.feed !== undefined);
    expect(paperSnap.feed).toMatchObject({ state: 'polling' });
    expect(paperSnap.feed?.reason).toMatch(/no feed/i);

    const key = freshKey('feed-e');
    paper.gw.gateway.keys.add(key);
    const port = new URL(paper.gw.url).port;
    await useProfile(
      h,
      { id: 'streamed', baseUrl: paper.proxy.url, feedUrl: `ws://127.0.0.1:${port}/ws` },
      key,
    );
    const s = await snapWhen(h, (x) => x.profile.id === 'streamed' && x.feed?.state === 'streaming');
    expect(s.feed).toMatchObject({ state: 'streaming', url: `ws://127.0.0.1:${port}/ws` });
    expect(h.of('session.gateway').at(-1)).toMatchObject({
      profileId: 'streamed',
      feed: { state: 'streaming' },
    });
  });

  it('refuses a feed URL on another computer than the gateway, and one that is not ws(s)', async () => {
    const h = await core();
    const other = await h.core.router.invoke('profiles.add', {
      name: 'Split',
      baseUrl: 'https://gw.example.com',
      feedUrl: 'wss://feed.example.net/ws',
    });
    expect(other).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(!other.ok && other.error.message).toMatch(/feed.example.net.*another computer.*gw.example.com/);
    const http = await h.core.router.invoke('profiles.add', {
      name: 'Http feed',
      baseUrl: 'https://gw.example.com',
      feedUrl: 'https://gw.example.com/ws',
    });
    expect(http).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    // The gateway's own host on another port (upstream's 8765) is the same gateway.
    const same = await h.core.router.invoke('profiles.add', {
      name: 'Same host',
      baseUrl: 'https://gw.example.com',
      feedUrl: 'wss://gw.example.com:8765',
    });
    expect(same.ok, JSON.stringify(same)).toBe(true);
    // Plain ws:// to another computer carries the key unencrypted: the same consent as http://.
    const plain = await h.core.router.invoke('profiles.add', {
      name: 'Plain feed',
      baseUrl: 'https://gw.example.com',
      feedUrl: 'ws://gw.example.com:8765',
    });
    expect(plain).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(!plain.ok && plain.error.message).toMatch(/without TLS/);
  });

  it('a feed URL set can be changed and cleared (back to the one derived from the base URL)', async () => {
    const h = await core();
    const added = await h.core.router.invoke('profiles.add', {
      id: 'feedy',
      name: 'Feedy',
      baseUrl: 'https://gw.example.com',
      feedUrl: 'wss://gw.example.com/ws2',
    });
    expect(added.ok).toBe(true);
    const cleared = await h.core.router.invoke('profiles.update', { id: 'feedy', changes: { feedUrl: '' } });
    expect(cleared.ok, JSON.stringify(cleared)).toBe(true);
    const p = cleared.ok ? cleared.value.profiles.find((x) => x.id === 'feedy') : undefined;
    expect(p).toBeDefined();
    expect(p?.feedUrl).toBeUndefined();
  });
});
