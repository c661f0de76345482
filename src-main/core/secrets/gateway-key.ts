// The key a gateway client may send, decided per call: the paper profile's own key as it is; a gateway
// profile's key only to the origin it was entered for, and to a plain http:// address on another
// computer only with the profile's "send my key without TLS" consent. Otherwise the key is withheld
// and the call answers no_key in words (settings edited by hand are where this shows).
import {
  insecureKeyRefusal,
  keyNeedsTlsConsent,
  keyOriginOf,
  keyOriginRefusal,
  type Profile,
} from '../../contract/index.js';
import type { ApiKeyLookup } from '../../gateway/index.js';
import type { SecretStore } from './secret-store.js';

/**
 * `profile` is read at each call (the consent may change without the client being rebuilt);
 * `baseUrl` is the one the client sends to.
 */
export function gatewayKeySource(
  store: Pick<SecretStore, 'revealBoundForGatewayClient'>,
  profile: () => Pick<Profile, 'id' | 'kind' | 'allowInsecureKey'>,
  baseUrl: string,
): () => Promise<ApiKeyLookup> {
  const origin = keyOriginOf(baseUrl);
  return async () => {
    const p = profile();
    if (p.kind !== 'paper' && keyNeedsTlsConsent(baseUrl) && p.allowInsecureKey !== true)
      return { withheld: insecureKeyRefusal(baseUrl) };
    const bound = await store.revealBoundForGatewayClient(p.id);
    if (!bound) return undefined;
    if (p.kind !== 'paper' && bound.origin !== undefined && bound.origin !== origin)
      return { withheld: keyOriginRefusal(bound.origin, baseUrl) };
    return bound.key;
  };
}
