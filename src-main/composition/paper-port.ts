// The embedded paper gateway as the core's `StartPaperGateway` port. A composition module, the one
// place that knows both sides: paper never imports core and core never imports paper, so the
// adapter can live in neither. Typed against the core's port, a change there breaks here, at once.
import type { StartPaperGateway } from '../core/index.js';

/** The paper gateway in-process on loopback, quiet; loaded only when the paper profile is used. */
export const embeddedPaperGateway: StartPaperGateway = async ({ dataDir, apiKey }) => {
  const { startPaperGateway } = await import('../paper/gateway.js');
  const gw = await startPaperGateway({ dataDir, apiKey, host: '127.0.0.1', port: 0, logger: false });
  return { url: gw.url, feedUrl: gw.feedUrl, stop: () => gw.stop() };
};
