// The page browser mode serves: its CSP header and the rewritten index.html.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PagePolicyError, webCsp, webIndexHtml } from '../../../src-main/web/page-policy.js';

const SOURCE_HTML = readFileSync(new URL('../../../src-renderer/index.html', import.meta.url), 'utf8');

describe('web CSP', () => {
  it('is the Electron policy with connect-src opened to exactly the bridge socket', () => {
    expect(webCsp({ host: '127.0.0.1', port: 7740 })).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
        "connect-src ws://127.0.0.1:7740/bridge; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it("the Electron page itself keeps connect-src 'none'", () => {
    expect(SOURCE_HTML).toContain("connect-src 'none'");
  });
});

describe('webIndexHtml', () => {
  const html = webIndexHtml(SOURCE_HTML);

  it('drops the meta CSP (a meta policy would still block the socket on top of the header)', () => {
    expect(html).not.toMatch(/Content-Security-Policy/i);
    expect(html).not.toContain("connect-src 'none'");
  });

  it('loads the bridge script, same origin, before the renderer module', () => {
    const bridge = html.indexOf('<script src="/bridge.js"></script>');
    const module = html.indexOf('<script type="module"');
    expect(bridge).toBeGreaterThan(html.indexOf('<head>'));
    expect(bridge).toBeLessThan(module);
    expect(html).toContain('<link rel="icon" href="data:," />');
  });

  it('refuses a page it cannot make safe to serve', () => {
    expect(() => webIndexHtml('<html><body></body></html>')).toThrow(PagePolicyError);
    expect(() =>
      webIndexHtml('<head><meta content="x" http-equiv="Content-Security-Policy"></head>'),
    ).toThrow(PagePolicyError);
  });
});
