// The renderer's Content-Security-Policy: no network (the renderer never talks to the gateway), no
// inline script, no plugins, no framing. The app protocol sends it as a header (which also carries
// frame-ancestors, ignored in a <meta>); index.html repeats the rest as a <meta> for dev builds.
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
