// One gateway client per profile, kept across switches, so what it learnt (a 404 means "not
// offered", a 429's cooldown) stays with that profile and never leaks to another. Rebuilt when the
// profile's URL or rate budget changes.
import type { Profile } from '../../contract/index.js';
import {
  createGatewayClient,
  EMBEDDED_IDLE_SOCKET_MS,
  nodeHttpFetch,
  type Clock,
  type FetchFn,
  type GatewayClient,
} from '../../gateway/index.js';
import type { CorePorts } from '../core-ports.js';
import type { GatewayMode } from '../gateway-mode.js';
import type { Profiles } from '../profiles/index.js';
import { gatewayKeySource, type SecretStore } from '../secrets/index.js';
import type { StorageState } from '../storage-status.js';
import type { PaperHost } from './paper-host.js';

export interface GatewayClients {
  clientFor(profile: Profile): Promise<GatewayClient>;
  /** Drops the clients of profiles the settings no longer hold. */
  prune(): void;
}

export function createGatewayClients(d: {
  secrets: SecretStore;
  profiles: Profiles;
  storage: StorageState;
  paper: PaperHost;
  gatewayMode: GatewayMode;
  clock: Clock;
  fetch?: FetchFn | undefined;
  tuning?: CorePorts['gateway'];
}): GatewayClients {
  const clients = new Map<string, { baseUrl: string; rateLimit: number; client: GatewayClient }>();
  return {
    async clientFor(profile) {
      // A paper ledger that cannot be opened leaves the paper profile unavailable, not the core stopped.
      if (profile.kind === 'paper' && !(await d.storage.paperStarts(() => d.paper.ensure())))
        return d.storage.unavailableClient();
      const baseUrl = profile.kind === 'paper' ? (await d.paper.ensure()).url : profile.baseUrl;
      const rateLimit = profile.rateLimitPerSecond;
      const known = clients.get(profile.id);
      if (known && known.baseUrl === baseUrl && known.rateLimit === rateLimit) return known.client;
      const client = createGatewayClient({
        baseUrl,
        // Only to the origin the key was entered for, and not over plain http:// elsewhere unasked.
        getApiKey: gatewayKeySource(d.secrets, () => d.profiles.get(profile.id) ?? profile, baseUrl),
        clock: d.clock,
        rateLimit,
        onAnalyzeMode: () => d.gatewayMode.analyzeSeen(profile.id),
        ...(d.fetch
          ? { fetch: d.fetch }
          : profile.kind === 'paper'
            ? { fetch: nodeHttpFetch({ idleSocketMs: EMBEDDED_IDLE_SOCKET_MS }) }
            : {}),
        // Test tuning; a `rateLimit` here overrides every profile's.
        ...d.tuning,
      });
      clients.set(profile.id, { baseUrl, rateLimit, client });
      return client;
    },
    prune() {
      for (const id of clients.keys()) if (!d.profiles.get(id)) clients.delete(id);
    },
  };
}
