// Who may call the core: the app window's main frame showing the app's own page, nobody else.
import { describe, expect, it } from 'vitest';
import { isTrustedSender, senderInfo, type SenderInfo } from '../../../src-main/desktop/sender-check.js';

const trust = { isAppContents: (id: number) => id === 7 };
const ok: SenderInfo = { contentsId: 7, frame: { url: 'app://bundle/index.html', isMainFrame: true } };

describe('isTrustedSender', () => {
  it("trusts the app window's main frame on app://bundle", () => {
    expect(isTrustedSender(ok, trust)).toBe(true);
    expect(
      isTrustedSender({ ...ok, frame: { url: 'app://bundle/#/orders', isMainFrame: true } }, trust),
    ).toBe(true);
  });

  it('refuses another web contents, a subframe, a gone frame and a foreign page', () => {
    expect(isTrustedSender({ ...ok, contentsId: 8 }, trust)).toBe(false);
    expect(
      isTrustedSender({ ...ok, frame: { url: 'app://bundle/index.html', isMainFrame: false } }, trust),
    ).toBe(false);
    expect(isTrustedSender({ ...ok, frame: null }, trust)).toBe(false);
    for (const url of [
      'https://evil.example/',
      'file:///work/out/renderer/index.html',
      'app://other/index.html',
      'http://localhost:5173/',
      'about:blank',
    ])
      expect(isTrustedSender({ ...ok, frame: { url, isMainFrame: true } }, trust), url).toBe(false);
  });

  it('trusts the dev server origin only when a dev run names it', () => {
    const dev = { url: 'http://localhost:5173/index.html', isMainFrame: true };
    expect(isTrustedSender({ ...ok, frame: dev }, { ...trust, devOrigin: 'http://localhost:5173' })).toBe(
      true,
    );
    expect(isTrustedSender({ ...ok, frame: dev }, { ...trust, devOrigin: 'http://localhost:5174' })).toBe(
      false,
    );
    expect(isTrustedSender({ ...ok, frame: dev }, trust)).toBe(false);
  });
});

describe('senderInfo', () => {
  it('reads the contents id, frame URL and whether the frame is the main one', () => {
    const main = { url: 'app://bundle/index.html', parent: null };
    expect(senderInfo({ sender: { id: 7 }, senderFrame: main } as never)).toEqual(ok);
    const sub = { url: 'app://bundle/index.html', parent: main };
    expect(senderInfo({ sender: { id: 7 }, senderFrame: sub } as never).frame?.isMainFrame).toBe(false);
    expect(senderInfo({ sender: { id: 7 }, senderFrame: null } as never).frame).toBeNull();
  });
});
