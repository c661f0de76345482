// The embedded paper gateway behind the paper profile: started on first use with OrderDesk's own key
// (made once, kept in the secret store), its address handed to the profiles, stopped with the core.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PAPER_PROFILE_ID } from '../../contract/index.js';
import type { EmbeddedGateway, StartPaperGateway } from '../core-ports.js';
import type { Logger } from '../ports.js';
import type { Profiles } from '../profiles/index.js';
import type { SecretStore } from '../secrets/index.js';

export interface PaperHost {
  /** The running gateway, started now if it is not (concurrent callers share one start). */
  ensure(): Promise<EmbeddedGateway>;
  /** The running gateway, if any. */
  current(): EmbeddedGateway | undefined;
  stop(): Promise<void>;
}

export function createPaperHost(d: {
  dataDir: string;
  secrets: SecretStore;
  profiles: Pick<Profiles, 'setEmbeddedBaseUrl'>;
  logger: Logger;
  start: StartPaperGateway;
}): PaperHost {
  let paper: EmbeddedGateway | undefined;
  let starting: Promise<EmbeddedGateway> | undefined;
  return {
    async ensure() {
      if (paper) return paper;
      starting ??= (async () => {
        let key = await d.secrets.revealForGatewayClient(PAPER_PROFILE_ID);
        if (!key) {
          key = randomBytes(32).toString('hex');
          await d.secrets.set(PAPER_PROFILE_ID, key);
        }
        const gw = await d.start({ dataDir: join(d.dataDir, 'paper'), apiKey: key });
        d.profiles.setEmbeddedBaseUrl(gw.url);
        d.logger.info('paper gateway started', { url: gw.url });
        paper = gw;
        return gw;
      })();
      try {
        return await starting;
      } finally {
        starting = undefined;
      }
    },
    current: () => paper,
    async stop() {
      await paper?.stop();
      paper = undefined;
    },
  };
}
