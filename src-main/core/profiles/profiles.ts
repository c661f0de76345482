// Gateway profiles: the embedded paper gateway (always first, the default, its URL known only at
// run time) plus the user's own gateways. A profile's id is its data key (secret account, journal
// and watch key); ids are random-suffixed and never reused, so switching or re-adding never mixes data.
import { randomBytes } from 'node:crypto';
import {
  NewProfileInput,
  PAPER_PROFILE_ID,
  ProfileUpdate,
  feedKeyRefusal,
  insecureKeyRefusal,
  keyNeedsTlsConsent,
  keyOriginOf,
  type Profile,
  type ProfileView,
} from '../../contract/index.js';
import { CoreError } from '../core-error.js';
import type { RouterSecretStore } from '../secrets/index.js';
import type { SettingsStore } from '../settings/index.js';

/** A refused profile operation; `kind` says which refusal (the router answers with it). */
export class ProfileError extends CoreError {
  override name = 'ProfileError';
  declare readonly kind: 'invalid_input' | 'not_found' | 'conflict';
  constructor(kind: 'invalid_input' | 'not_found' | 'conflict', message: string) {
    super(kind, message);
  }
}

export interface ProfilesOptions {
  settings: Pick<SettingsStore, 'get' | 'update'>;
  secrets: Pick<RouterSecretStore, 'has' | 'clear'>;
}

export interface ProfileUpdated {
  profile: Profile;
  /** The base URL moved to another origin and the key stored for the old one was removed. */
  keyCleared: boolean;
}

export interface Profiles {
  /** Every profile, paper first, with whether it is active and has a key. */
  list(): Promise<ProfileView[]>;
  /** The active profile, with the paper gateway's run-time URL filled in. */
  active(): Profile;
  get(id: string): Profile | undefined;
  add(input: NewProfileInput): Promise<Profile>;
  /** A change of the base URL's origin clears the profile's key (`keyCleared`): it is entered again. */
  update(id: string, change: ProfileUpdate): Promise<ProfileUpdated>;
  /** Removes a profile and its key; the paper profile cannot be removed. */
  remove(id: string): Promise<void>;
  switchTo(id: string): Promise<Profile>;
  /** Set by whoever starts the embedded paper gateway (its port changes every run). */
  setEmbeddedBaseUrl(url: string): void;
  /** Called after the active profile changes, so per-profile state (watchers, guards) can reset. */
  onSwitch(listener: (p: Profile) => void): () => void;
}

function firstIssue(e: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const i = e.issues[0];
  return i ? `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}` : 'invalid input';
}

function slug(name: string): string {
  const s = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return s || 'gateway';
}

export function createProfiles(options: ProfilesOptions): Profiles {
  const { settings, secrets } = options;
  let embeddedBaseUrl = '';
  const listeners = new Set<(p: Profile) => void>();

  const resolve = (p: Profile): Profile => (p.kind === 'paper' ? { ...p, baseUrl: embeddedBaseUrl } : p);
  const find = (id: string) => settings.get().profiles.find((p) => p.id === id);
  function mustFind(id: string): Profile {
    const p = find(id);
    if (!p) throw new ProfileError('not_found', `no profile ${id}`);
    return p;
  }
  function notify(): void {
    const p = resolve(mustFind(settings.get().activeProfileId));
    for (const l of listeners) l(p);
  }

  return {
    async list() {
      const s = settings.get();
      return Promise.all(
        s.profiles.map(async (p) => ({
          ...resolve(p),
          active: p.id === s.activeProfileId,
          hasKey: await secrets.has(p.id),
        })),
      );
    },
    active: () => resolve(mustFind(settings.get().activeProfileId)),
    get: (id) => {
      const p = find(id);
      return p && resolve(p);
    },
    async add(input) {
      // Checked before the schema (which refuses it too) so that the refusal is a conflict.
      if (input.id === PAPER_PROFILE_ID)
        throw new ProfileError('conflict', 'the paper profile id is reserved');
      const parsed = NewProfileInput.safeParse(input);
      if (!parsed.success) throw new ProfileError('invalid_input', firstIssue(parsed.error));
      const { id: requested, ...fields } = parsed.data;
      if (requested !== undefined && find(requested))
        throw new ProfileError('conflict', `profile id ${requested} is already used`);
      let id = requested ?? '';
      while (id === '' || find(id)) id = `${slug(fields.name)}-${randomBytes(3).toString('hex')}`;
      const profile: Profile = { id, kind: 'gateway', ...fields };
      await settings.update((s) => ({ ...s, profiles: [...s.profiles, profile] }));
      return profile;
    },
    async update(id, change) {
      const parsed = ProfileUpdate.safeParse(change);
      if (!parsed.success) throw new ProfileError('invalid_input', firstIssue(parsed.error));
      const current = mustFind(id);
      if (current.kind === 'paper' && parsed.data.baseUrl !== undefined)
        throw new ProfileError(
          'invalid_input',
          "the paper gateway's URL is set when it starts and cannot be changed",
        );
      const { feedUrl, ...rest } = parsed.data;
      const next: Profile = { ...current, ...rest };
      // '' clears the feed URL: the feed is derived from the base URL again.
      if (feedUrl === '') delete next.feedUrl;
      else if (feedUrl !== undefined) next.feedUrl = feedUrl;
      if (next.kind === 'gateway' && keyNeedsTlsConsent(next.baseUrl) && next.allowInsecureKey !== true)
        throw new ProfileError('invalid_input', `baseUrl: ${insecureKeyRefusal(next.baseUrl)}`);
      const feedRefused = next.feedUrl && feedKeyRefusal(next.baseUrl, next.feedUrl, next.allowInsecureKey);
      if (next.kind === 'gateway' && feedRefused)
        throw new ProfileError('invalid_input', `feedUrl: ${feedRefused}`);
      const moved = next.kind === 'gateway' && keyOriginOf(next.baseUrl) !== keyOriginOf(current.baseUrl);
      // The key goes before the new address is saved: no call can send it there in between.
      const keyCleared = moved && (await secrets.has(id));
      if (keyCleared) await secrets.clear(id);
      await settings.update((s) => ({ ...s, profiles: s.profiles.map((p) => (p.id === id ? next : p)) }));
      return { profile: resolve(next), keyCleared };
    },
    async remove(id) {
      if (id === PAPER_PROFILE_ID) throw new ProfileError('conflict', 'the paper profile cannot be removed');
      mustFind(id);
      const wasActive = settings.get().activeProfileId === id;
      await settings.update((s) => ({
        ...s,
        profiles: s.profiles.filter((p) => p.id !== id),
        activeProfileId: s.activeProfileId === id ? PAPER_PROFILE_ID : s.activeProfileId,
      }));
      // After the profile is gone, so a failure here cannot leave a profile without its key.
      await secrets.clear(id);
      if (wasActive) notify();
    },
    async switchTo(id) {
      const target = mustFind(id);
      if (settings.get().activeProfileId !== id) {
        await settings.update((s) => ({ ...s, activeProfileId: id }));
        notify();
      }
      return resolve(target);
    },
    setEmbeddedBaseUrl(url) {
      if (!URL.canParse(url)) throw new ProfileError('invalid_input', 'the paper gateway URL is not a URL');
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:')
        throw new ProfileError('invalid_input', 'the paper gateway URL must be http(s)');
      embeddedBaseUrl = u.origin;
    },
    onSwitch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
