// Browser mode's host as one plain-JS module (out/web/cli.js), so `npm run web` and the tests that
// spawn the host run node on built code, as the Electron build does: no TypeScript loader at run time
// (tsx compiled every source at each start, ~1 s, and its loader thread kept waking while idle).
// Dependencies stay external (node_modules); the page's bridge script is copied beside it.
import { cpSync } from 'node:fs';
import { build } from 'vite';

await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    ssr: 'src-main/web/cli.ts',
    outDir: 'out/web',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'cli.js' } },
  },
});
cpSync('src-main/web/page', 'out/web/page', { recursive: true });
