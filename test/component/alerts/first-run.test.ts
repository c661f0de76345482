import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ApiKeyStatus, ProfileView, ProfilesList } from '@contract';
import FirstRun from '../../../src-renderer/src/components/FirstRun.svelte';
import { BRIDGE } from '../../../src-renderer/src/state/context';
import { apiKeyProblem, baseUrlProblem, needsSetup } from '../../../src-renderer/src/state/profiles.svelte';
import { FakeBridge, deferred } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/session';

const KEY = 'a'.repeat(64);

const PAPER: ProfileView = {
  id: 'paper',
  name: 'Paper (simulated)',
  kind: 'paper',
  baseUrl: 'http://127.0.0.1:40001',
  strategy: 'OrderDesk',
  rateLimitPerSecond: 10,
  active: true,
  hasKey: true,
};

/** A fake main with a profile list and per-profile key flags, as the core keeps them. */
function fakeMain() {
  const b = new FakeBridge();
  let active = 'paper';
  const profiles: ProfileView[] = [PAPER];
  const keys = new Map<string, boolean>([['paper', true]]);
  const list = (): ProfilesList => ({
    activeProfileId: active,
    profiles: profiles.map((p) => ({ ...p, active: p.id === active, hasKey: keys.get(p.id) ?? false })),
  });
  const status = (profileId: string): ApiKeyStatus => ({
    profileId,
    present: keys.get(profileId) ?? false,
    backend: 'keychain',
    persistent: true,
  });
  b.answer('profiles.list', () => ({ ok: true, value: list() }))
    .answer('profiles.add', (input) => {
      profiles.push({ ...PAPER, id: 'gw-1', kind: 'gateway', name: input!.name, baseUrl: input!.baseUrl });
      return { ok: true, value: list() };
    })
    .answer('profiles.switch', (input) => {
      active = input!.id;
      return { ok: true, value: list() };
    })
    .answer('apiKey.status', (input) => ({ ok: true, value: status(input?.profileId ?? active) }))
    .answer('apiKey.set', (input) => {
      keys.set(input!.profileId!, true);
      return { ok: true, value: status(input!.profileId!) };
    })
    .answer('apiKey.clear', (input) => {
      keys.set(input!.profileId!, false);
      return { ok: true, value: status(input!.profileId!) };
    })
    .answer('apiKey.test', () => ({
      ok: false,
      error: { kind: 'unauthorised', message: 'Invalid openalgo apikey', httpStatus: 403 },
    }));
  return b;
}

async function addLiveProfile(b: FakeBridge) {
  render(FirstRun, { context: new Map([[BRIDGE, b]]) });
  await flush();
  await fireEvent.input(screen.getByTestId('profile-name'), { target: { value: 'My broker' } });
  await fireEvent.input(screen.getByTestId('profile-url'), { target: { value: 'http://127.0.0.1:5000' } });
  await fireEvent.click(screen.getByTestId('profile-add'));
  await flush();
}

describe('first run: rules', () => {
  it('is needed for a live profile without a key or with a rejected one, never for paper', () => {
    expect(needsSetup({ kind: 'paper' }, { present: false }, 'no_key')).toBe(false);
    expect(needsSetup({ kind: 'gateway' }, { present: false })).toBe(true);
    expect(needsSetup({ kind: 'gateway' }, { present: true }, 'unauthorised')).toBe(true);
    expect(needsSetup({ kind: 'gateway' }, { present: true }, 'connected')).toBe(false);
    expect(needsSetup(undefined, undefined)).toBe(false);
  });

  it('explains a bad URL or key in words', () => {
    expect(baseUrlProblem('')).toMatch(/base URL/);
    expect(baseUrlProblem('localhost:5000')).toMatch(/http:\/\/ or https:\/\//);
    expect(baseUrlProblem('http://user:pw@host:5000')).toMatch(/No user name or password/);
    expect(baseUrlProblem('http://host:5000/?apikey=1')).toMatch(/No query/);
    expect(baseUrlProblem('https://gw.example.com')).toBeUndefined();
    expect(apiKeyProblem(`${KEY}\n`)).toMatch(/spaces or line breaks/);
    expect(apiKeyProblem(KEY)).toBeUndefined();
  });
});

describe('the FirstRun pane', () => {
  it('on paper: says paper needs no setup and offers no key field', async () => {
    render(FirstRun, { context: new Map([[BRIDGE, fakeMain()]]) });
    await flush();
    expect(screen.getByText(/needs no setup/)).toBeInTheDocument();
    expect(screen.queryByTestId('key-input')).toBeNull();
  });

  it('validates the URL as typed and sends nothing while it is wrong', async () => {
    const b = fakeMain();
    render(FirstRun, { context: new Map([[BRIDGE, b]]) });
    await flush();
    await fireEvent.input(screen.getByTestId('profile-name'), { target: { value: 'Broker' } });
    await fireEvent.input(screen.getByTestId('profile-url'), { target: { value: 'ftp://x' } });
    expect(screen.getByText('The URL must start with http:// or https://')).toBeInTheDocument();
    expect(screen.getByTestId('profile-url')).toHaveAttribute('aria-invalid', 'true');
    await fireEvent.click(screen.getByTestId('profile-add'));
    await flush();
    expect(b.callsTo('profiles.add')).toEqual([]);
  });

  it('adds a live profile and switches to it; the key is sent write-only, the field cleared, never shown', async () => {
    const b = fakeMain();
    await addLiveProfile(b);
    expect(b.callsTo('profiles.add')).toEqual([
      { channel: 'profiles.add', input: { name: 'My broker', baseUrl: 'http://127.0.0.1:5000' } },
    ]);
    expect(b.callsTo('profiles.switch')).toEqual([{ channel: 'profiles.switch', input: { id: 'gw-1' } }]);
    expect(screen.getByTestId('key-status')).toHaveTextContent('no key stored');
    const input = screen.getByTestId('key-input') as HTMLInputElement;
    expect(input.type).toBe('password');
    await fireEvent.input(input, { target: { value: KEY } });
    await fireEvent.click(screen.getByTestId('key-save'));
    await flush();
    expect(b.callsTo('apiKey.set')).toEqual([
      { channel: 'apiKey.set', input: { key: KEY, profileId: 'gw-1' } },
    ]);
    expect(input.value).toBe('');
    expect(screen.getByTestId('key-status')).toHaveTextContent('key stored in keychain');
    expect(document.body.innerHTML).not.toContain(KEY);
  });

  it('the key field is cleared the moment it is sent, before main answers, and a double click sends once', async () => {
    const b = fakeMain();
    await addLiveProfile(b);
    const answer = deferred<{ ok: true; value: ApiKeyStatus }>();
    b.answer('apiKey.set', () => answer.promise);
    const input = screen.getByTestId('key-input') as HTMLInputElement;
    await fireEvent.input(input, { target: { value: KEY } });
    await fireEvent.click(screen.getByTestId('key-save'));
    expect(input.value).toBe('');
    await fireEvent.click(screen.getByTestId('key-save'));
    answer.resolve({
      ok: true,
      value: { profileId: 'gw-1', present: true, backend: 'keychain', persistent: true },
    });
    await flush();
    expect(b.callsTo('apiKey.set')).toHaveLength(1);
  });

  // A password field drops line breaks itself; a space pasted with the key stays and must be caught.
  it('a key with a space is refused in words and not sent', async () => {
    const b = fakeMain();
    await addLiveProfile(b);
    await fireEvent.input(screen.getByTestId('key-input'), { target: { value: `${KEY} ` } });
    expect(screen.getByText('The API key cannot contain spaces or line breaks')).toBeInTheDocument();
    await fireEvent.click(screen.getByTestId('key-save'));
    await flush();
    expect(b.callsTo('apiKey.set')).toEqual([]);
  });

  it('test shows the gateway refusal in its words; clear removes the key', async () => {
    const b = fakeMain();
    await addLiveProfile(b);
    await fireEvent.input(screen.getByTestId('key-input'), { target: { value: KEY } });
    await fireEvent.click(screen.getByTestId('key-save'));
    await flush();
    await fireEvent.click(screen.getByTestId('key-test'));
    await flush();
    expect(b.callsTo('apiKey.test')).toEqual([{ channel: 'apiKey.test', input: { profileId: 'gw-1' } }]);
    const result = screen.getByTestId('key-test-result');
    expect(result).toHaveAttribute('data-ok', 'false');
    expect(result).toHaveTextContent('Gateway refused: Invalid openalgo apikey');
    await fireEvent.click(screen.getByTestId('key-clear'));
    await flush();
    expect(b.callsTo('apiKey.clear')).toEqual([{ channel: 'apiKey.clear', input: { profileId: 'gw-1' } }]);
    expect(screen.getByTestId('key-status')).toHaveTextContent('no key stored');
    expect(screen.getByTestId('key-test')).toBeDisabled();
  });

  it('a refused add shows main’s reason', async () => {
    const b = fakeMain().answer('profiles.add', () => ({
      ok: false,
      error: { kind: 'conflict', message: 'a profile named My broker exists' },
    }));
    await addLiveProfile(b);
    expect(screen.getByTestId('first-run-problem')).toHaveTextContent(
      'Add profile: a profile named My broker exists',
    );
    expect(b.callsTo('profiles.switch')).toEqual([]);
  });
});
