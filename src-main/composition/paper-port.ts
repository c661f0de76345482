// The embedded paper gateway as the core's `StartPaperGateway` port. A composition module, the one
// place that knows both sides: paper never imports core and core never imports paper, so the
// adapter can live in neither. Typed against the core's port, a change there breaks here, at once.
import { join } from 'node:path';
import { PaperUnavailableError, type StartPaperGateway } from '../core/index.js';
import { storageCause } from '../core/storage-words.js';

/**
 * The paper gateway in-process on loopback, quiet; loaded only when the paper profile is used. A
 * SQLite failure at its start is its ledger's (the one database it keeps): thrown as the core's
 * PaperUnavailableError with the file named, so the core runs on with the paper profile unavailable.
 */
export const embeddedPaperGateway: StartPaperGateway = async ({ dataDir, apiKey }) => {
  const { startPaperGateway } = await import('../paper/gateway.js');
  try {
    const gw = await startPaperGateway({ dataDir, apiKey, host: '127.0.0.1', port: 0, logger: false });
    return { url: gw.url, feedUrl: gw.feedUrl, stop: () => gw.stop() };
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || !code.startsWith('SQLITE_')) throw err;
    const { LEDGER_FILE } = await import('../paper/engine/ledger.js');
    throw new PaperUnavailableError(join(dataDir, LEDGER_FILE), storageCause(err) ?? (err as Error).message);
  }
};
