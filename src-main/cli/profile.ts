// The profile a CLI run trades on: the one named by --profile (id, or name in any case), else the
// saved active one. --url points it at another gateway; --url alone makes a transient profile that
// no settings file holds. The embedded paper profile has no fixed URL outside the app, so it needs --url.
import { Profile, type Settings } from '../contract/index.js';

/** The transient profile's id: its journal entries are told apart from every saved profile's. */
export const TRANSIENT_PROFILE_ID = 'cli';

export type ChosenProfile = { ok: true; profile: Profile } | { ok: false; message: string };

function find(settings: Settings, wanted: string): Profile | undefined {
  const w = wanted.toLowerCase();
  return (
    settings.profiles.find((p) => p.id === wanted) ??
    settings.profiles.find((p) => p.name.toLowerCase() === w)
  );
}

export function chooseProfile(
  settings: Settings,
  args: { profile?: string; url?: string; dataDir: string },
): ChosenProfile {
  const saved =
    args.profile === undefined
      ? settings.profiles.find((p) => p.id === settings.activeProfileId)
      : find(settings, args.profile);
  if (args.profile !== undefined && !saved)
    return { ok: false, message: `no profile ${JSON.stringify(args.profile)} in ${args.dataDir}` };
  if (args.url !== undefined) {
    const base =
      args.profile !== undefined && saved ? saved : { id: TRANSIENT_PROFILE_ID, name: 'Command line' };
    // The contract's own check: http(s), no credentials, no query.
    const parsed = Profile.safeParse({ ...base, kind: 'gateway', baseUrl: args.url });
    if (!parsed.success)
      return { ok: false, message: '--url must be an http(s) URL without credentials or query' };
    return { ok: true, profile: parsed.data };
  }
  if (!saved) return { ok: false, message: `no active profile in ${args.dataDir}` };
  if (saved.kind === 'paper' || saved.baseUrl === '')
    return {
      ok: false,
      message: `profile ${saved.id} has no fixed URL; pass --url (npm run paper prints it)`,
    };
  return { ok: true, profile: saved };
}
