// bindUnboundKey: a key an earlier version stored without its origin is bound in place; when the
// store refuses the write, the key is bound to that origin for the session all the same.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createMemoryLogger,
  createSecretStore,
  SecretStoreError,
  type SecretStoreOptions,
} from '../../../../src-main/core/secrets/index.js';
import { fakeKeytar } from '../../../support/secret-fakes.js';

const KEY = 'legacy-0123456789abcdef0123456789abcdef';
const ORIGIN = 'https://gw.example.com';
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'orderdesk-bind-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function store(o: Partial<SecretStoreOptions> = {}) {
  return createSecretStore({
    service: 'OrderDesk',
    keytar: null,
    paths: { dataDir },
    logger: createMemoryLogger(),
    ...o,
  });
}

describe('secret store: bindUnboundKey', () => {
  it('binds a bare stored key to the origin, once; a bound key keeps its own', async () => {
    const k = fakeKeytar();
    k.items.set('OrderDesk/broker', KEY);
    const s = store({ keytar: async () => k.keytar });
    expect(await s.bindUnboundKey('broker', ORIGIN)).toBe('bound');
    expect(await s.revealBoundForGatewayClient('broker')).toEqual({ key: KEY, origin: ORIGIN });
    expect(k.items.get('OrderDesk/broker')).toContain(ORIGIN);
    expect(await s.bindUnboundKey('broker', 'https://elsewhere.example.com')).toBe('unchanged');
    s.forget();
    expect(await s.revealBoundForGatewayClient('broker')).toEqual({ key: KEY, origin: ORIGIN });
    expect(await s.bindUnboundKey('nobody', ORIGIN)).toBe('unchanged');
  });

  it('a refused write throws in words and binds the key for this session only', async () => {
    const k = fakeKeytar({ failSetAfterProbe: 'keyring is locked' });
    k.items.set('OrderDesk/broker', KEY);
    const s = store({ keytar: async () => k.keytar });
    const refused = await s.bindUnboundKey('broker', ORIGIN).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SecretStoreError);
    expect((refused as SecretStoreError).kind).toBe('secret_store');
    expect((refused as Error).message).toMatch(/could not be saved with its address.*keyring is locked/);
    expect((refused as Error).message).not.toContain(KEY.slice(0, 12));
    expect(k.items.get('OrderDesk/broker')).toBe(KEY);
    // Still the keychain: the refusal moved no key to another tier.
    expect((await s.status()).backend).toBe('keychain');
    s.forget();
    expect(await s.revealBoundForGatewayClient('broker')).toEqual({ key: KEY, origin: ORIGIN });
    // Clearing the key ends the session binding: a bare key put back later is unbound again.
    await s.clear('broker');
    k.items.set('OrderDesk/broker', KEY);
    expect(await s.revealBoundForGatewayClient('broker')).toEqual({ key: KEY });
  });

  it('a memory store holds only keys given this session: nothing to bind', async () => {
    const s = store();
    await s.set('broker', KEY);
    expect(await s.bindUnboundKey('broker', ORIGIN)).toBe('unchanged');
    expect(await s.revealBoundForGatewayClient('broker')).toEqual({ key: KEY });
  });
});
