// Over 300 lines: adding, switching and the key's set/test/clear are one setup flow.
// First run and profile setup: the gateway profiles, adding one (name and base URL), switching to it,
// and its API key (set, test, clear). The key goes to main write-only through apiKey.set; nothing
// here keeps or shows it, and no answer carries it back.
import type { ApiKeyStatus, BridgeApi, IpcError, ProfileView, SessionConnection } from '@contract';

/** What a profile edit may change (profiles.update); a `feedUrl` of '' clears it. */
export type ProfileChanges = Partial<
  Pick<
    ProfileView,
    'name' | 'baseUrl' | 'strategy' | 'rateLimitPerSecond' | 'allowInsecureKey' | 'feedUrl' | 'sandbox'
  >
>;

/** The consent's words beside its checkbox (main's refusal names the same switch). */
export const INSECURE_KEY_CONSENT = 'Send my key without TLS';

/**
 * Whether a base URL is plain http:// (or a feed URL plain ws://) to another computer, where the key
 * would cross the network unencrypted: the form then offers the consent. The renderer's copy of contract/core/key-origin.ts
 * (it imports contract types only); main checks again.
 */
export function needsTlsConsent(text: string): boolean {
  let u: URL;
  try {
    // A parse to check the text, not state the page renders.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    u = new URL(text.trim());
  } catch {
    return false;
  }
  return (u.protocol === 'http:' || u.protocol === 'ws:') && !isLoopback(u.hostname);
}

/** This computer: localhost (and *.localhost), 127.0.0.0/8, ::1. */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/**
 * Why a feed URL cannot be used with this base URL ('' is no feed URL: it is derived). The renderer's
 * copy of main's checks (contract/core/key-origin.ts feedKeyRefusal): ws(s) only, no credentials,
 * and on the gateway's own computer, since the feed is sent the gateway's key.
 */
export function feedUrlProblem(text: string, baseUrl: string): string | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  let u: URL;
  try {
    // A parse to check the text, not state the page renders.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    u = new URL(s);
  } catch {
    return 'Not a URL: write it as ws://host:port or wss://host/ws';
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return 'The feed URL must start with ws:// or wss://';
  if (u.username || u.password || u.search) return 'No user name, password or query in the feed URL';
  let base: URL;
  try {
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    base = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  const host = (x: URL) => x.hostname.toLowerCase().replace(/\.$/, '');
  const same = host(u) === host(base) || (isLoopback(u.hostname) && isLoopback(base.hostname));
  if (!same)
    return `The feed is on another computer than the gateway (${base.host}): the API key is not sent there. Use the gateway's own host, or leave it empty`;
  return undefined;
}

/** The feed URL main uses when the profile sets none (gateway/feed-url.ts), or '' for none. */
export function derivedFeedUrl(baseUrl: string): string {
  let u: URL;
  try {
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    u = new URL(baseUrl.trim());
  } catch {
    return '';
  }
  if (u.protocol === 'https:') return `wss://${u.host}/ws`;
  if (u.protocol === 'http:') return `ws://${u.hostname}:8765`;
  return '';
}

/** What the last key test found: the gateway's own words either way. */
export type KeyTest =
  { ok: true; broker: string; message: string } | { ok: false; kind: IpcError['kind']; message: string };

/** The guided panel belongs on screen: a live profile without a key, or one the gateway refuses. */
export function needsSetup(
  profile: Pick<ProfileView, 'kind'> | undefined,
  key: Pick<ApiKeyStatus, 'present'> | undefined,
  connection?: SessionConnection | 'link_lost',
): boolean {
  if (!profile || profile.kind === 'paper') return false;
  return key?.present === false || connection === 'no_key' || connection === 'unauthorised';
}

/** Reasons in words, as the trader types (main checks again with the contract's schema). */
export function profileNameProblem(name: string): string | undefined {
  const n = name.trim();
  if (n === '') return 'Give the profile a name';
  if (n.length > 64) return 'The name must be at most 64 characters';
  return undefined;
}

export function baseUrlProblem(text: string): string | undefined {
  const s = text.trim();
  if (s === '') return 'Enter the gateway’s base URL, e.g. http://127.0.0.1:5000';
  let u: URL;
  try {
    // A parse to check the text, not state the page renders.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    u = new URL(s);
  } catch {
    return 'Not a URL: write it as http://host:port';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'The URL must start with http:// or https://';
  // A key in the URL would land in settings and logs; it goes in the key field instead.
  if (u.username || u.password) return 'No user name or password in the URL: the API key goes below';
  if (u.search) return 'No query (?…) in the URL';
  return undefined;
}

/** The same checks as the contract's ApiKeyInput, so a stray newline is caught before sending. */
export function apiKeyProblem(key: string): string | undefined {
  if (key === '') return 'Paste the API key';
  if (key.length > 512) return 'The API key must be at most 512 characters';
  if (!/^[^\s\p{Cc}\p{Cf}]+$/u.test(key)) return 'The API key cannot contain spaces or line breaks';
  return undefined;
}

export class ProfilesState {
  profiles = $state.raw<ProfileView[]>([]);
  activeId = $state<string | undefined>();
  /** Key status per profile id, as main last answered. */
  keys = $state.raw<Readonly<Record<string, ApiKeyStatus>>>({});
  lastTest = $state<KeyTest | undefined>();
  /** The last refusal, in main's words. */
  problem = $state<string | undefined>();
  /** A call in flight: the buttons wait for it (no double add, no double send). */
  busy = $state(false);

  readonly active: ProfileView | undefined = $derived(this.profiles.find((p) => p.id === this.activeId));

  readonly #bridge: BridgeApi;

  constructor(bridge: BridgeApi) {
    this.#bridge = bridge;
  }

  /** Follows switches and key changes made elsewhere (tray, another window); returns the stop. */
  start(): () => void {
    const offs = [
      this.#bridge.on('profiles.switched', () => void this.load()),
      this.#bridge.on('apiKey.status', (k) => {
        const { seq: _seq, ...status } = k;
        this.keys = { ...this.keys, [k.profileId]: status };
      }),
    ];
    void this.load();
    return () => {
      for (const off of offs) off();
    };
  }

  /** Lists the profiles and the active one's key status. */
  async load(): Promise<boolean> {
    return this.#run(async () => {
      const r = await this.#bridge.invoke('profiles.list');
      if (!r.ok) return this.#fail('Profiles', r.error);
      this.profiles = r.value.profiles;
      this.activeId = r.value.activeProfileId;
      return this.#readKey(r.value.activeProfileId);
    });
  }

  /** Adds a gateway profile and makes it the active one. */
  async add(name: string, baseUrl: string, allowInsecureKey = false): Promise<boolean> {
    const problem = profileNameProblem(name) ?? baseUrlProblem(baseUrl);
    if (problem) {
      this.problem = problem;
      return false;
    }
    return this.#run(async () => {
      const before = this.profiles.map((p) => p.id);
      const r = await this.#bridge.invoke('profiles.add', {
        name: name.trim(),
        baseUrl: baseUrl.trim(),
        ...(allowInsecureKey && needsTlsConsent(baseUrl) ? { allowInsecureKey: true } : {}),
      });
      if (!r.ok) return this.#fail('Add profile', r.error);
      this.profiles = r.value.profiles;
      this.activeId = r.value.activeProfileId;
      const added = r.value.profiles.find((p) => !before.includes(p.id));
      if (!added) {
        this.problem = 'Add profile: main answered without the new profile';
        return false;
      }
      return this.#switch(added.id);
    });
  }

  /**
   * Changes a profile's name, base URL, strategy tag or rate limit. The refusal comes back whole
   * (its `fields` name what main refused) for the form to show beside each field; `notice`: what
   * main did besides (a new address cleared the key, to be entered again).
   */
  async update(
    id: string,
    changes: ProfileChanges,
  ): Promise<{ ok: true; notice?: string } | { ok: false; error: IpcError }> {
    if (this.busy)
      return { ok: false, error: { kind: 'conflict', message: 'Still busy with the last change' } };
    this.busy = true;
    this.problem = undefined;
    try {
      const r = await this.#bridge.invoke('profiles.update', { id, changes });
      if (!r.ok) return r;
      this.profiles = r.value.profiles;
      this.activeId = r.value.activeProfileId;
      return r.value.notice ? { ok: true, notice: r.value.notice } : { ok: true };
    } finally {
      this.busy = false;
    }
  }

  /** Removes a gateway profile (its key with it); removing the active one switches to paper. */
  async remove(id: string): Promise<boolean> {
    return this.#run(async () => {
      const r = await this.#bridge.invoke('profiles.remove', { id });
      if (!r.ok) return this.#fail('Remove profile', r.error);
      this.profiles = r.value.profiles;
      this.activeId = r.value.activeProfileId;
      return this.#readKey(r.value.activeProfileId);
    });
  }

  async switchTo(id: string): Promise<boolean> {
    return this.#run(() => this.#switch(id));
  }

  /** Sends the key to main (write-only); the caller clears its field whatever the answer. */
  async setKey(key: string, profileId = this.activeId): Promise<boolean> {
    const problem = apiKeyProblem(key);
    if (problem) {
      this.problem = problem;
      return false;
    }
    if (!profileId) return this.#noProfile();
    return this.#run(async () => {
      const r = await this.#bridge.invoke('apiKey.set', { key, profileId });
      if (!r.ok) return this.#fail('Save key', r.error);
      this.keys = { ...this.keys, [profileId]: r.value };
      this.lastTest = undefined;
      return true;
    });
  }

  /** Asks the gateway whether it accepts the stored key (its ping). */
  async testKey(profileId = this.activeId): Promise<boolean> {
    if (!profileId) return this.#noProfile();
    return this.#run(async () => {
      const r = await this.#bridge.invoke('apiKey.test', { profileId });
      this.lastTest = r.ok
        ? { ok: true, broker: r.value.broker, message: r.value.message }
        : { ok: false, kind: r.error.kind, message: r.error.message };
      return r.ok;
    });
  }

  async clearKey(profileId = this.activeId): Promise<boolean> {
    if (!profileId) return this.#noProfile();
    return this.#run(async () => {
      const r = await this.#bridge.invoke('apiKey.clear', { profileId });
      if (!r.ok) return this.#fail('Clear key', r.error);
      this.keys = { ...this.keys, [profileId]: r.value };
      this.lastTest = undefined;
      return true;
    });
  }

  async #switch(id: string): Promise<boolean> {
    const r = await this.#bridge.invoke('profiles.switch', { id });
    if (!r.ok) return this.#fail('Switch profile', r.error);
    this.profiles = r.value.profiles;
    this.activeId = r.value.activeProfileId;
    this.lastTest = undefined;
    return this.#readKey(r.value.activeProfileId);
  }

  async #readKey(profileId: string): Promise<boolean> {
    const r = await this.#bridge.invoke('apiKey.status', { profileId });
    if (!r.ok) return this.#fail('Key status', r.error);
    this.keys = { ...this.keys, [profileId]: r.value };
    return true;
  }

  async #run(work: () => Promise<boolean>): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    this.problem = undefined;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }

  #fail(what: string, error: IpcError): false {
    this.problem = `${what}: ${error.message}`;
    return false;
  }

  #noProfile(): false {
    this.problem = 'No profile is selected';
    return false;
  }
}
