// Keys saved before keys were bound to their gateway's origin have no origin recorded, and would go
// wherever their profile points. At start each is bound to the origin of its profile's base URL as
// saved (where the trader entered it); from then on gateway-key.ts sends it there only. The paper
// profile's key is OrderDesk's own and stays unbound.
import { errorMessage, keyOriginOf, type Profile } from '../../contract/index.js';
import type { Logger } from '../ports.js';
import type { SecretStore } from './secret-store.js';

export async function bindLegacyKeys(
  store: Pick<SecretStore, 'bindUnboundKey'>,
  profiles: readonly Profile[],
  logger: Logger,
): Promise<void> {
  for (const p of profiles) {
    const origin = p.kind === 'gateway' ? keyOriginOf(p.baseUrl) : '';
    if (!origin) continue;
    try {
      if ((await store.bindUnboundKey(p.id, origin)) === 'bound')
        logger.info(`${p.name}'s API key, saved by an earlier version, is now tied to ${origin}`, {
          profileId: p.id,
        });
    } catch (err) {
      // Withholding the key would leave the trader unable to act on the gateway it was entered for:
      // this session it goes to that origin only (the store holds it so), and the next start tries again.
      logger.warn(
        `${p.name}'s API key could not be saved with the address it is for; this session it is sent only to ${origin}, and OrderDesk tries again at the next start`,
        { profileId: p.id, reason: errorMessage(err) },
      );
    }
  }
}
