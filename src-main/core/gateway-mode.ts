// What the active profile talks to, as the desk shows it: PAPER (the embedded paper gateway), SANDBOX
// (a gateway in analyze mode, or a profile marked sandbox by hand) or LIVE (real money), and whether
// its feed streams or the desk polls. The gateway's analyzer is asked once per connect (a session
// opened, or the connection back after a loss); an answer carrying `mode: "analyze"` says sandbox at
// once. The gateway's own word that it is live wins over the trader's mark: real money is never shown
// as simulated. Published in the session snapshot and, at each change, as `session.gateway`.
import type { Profile, SessionFeed, SessionGatewayEvent, SessionMode } from '../contract/index.js';
import type { GatewayClient } from '../gateway/index.js';
import type { Logger } from './ports.js';
import type { Emit } from './router/event-bus.js';

/** The snapshot's part: the profile it is of, the mode, why in words, and the feed. */
export type GatewayModeView = SessionGatewayEvent;

export interface GatewayMode {
  /** A session opened on `profile`: what the last gateway reported is forgotten, this one asked. */
  open(profile: Profile, client: Pick<GatewayClient, 'analyzer'>): void;
  /** The connection is back after a loss: the gateway may have been switched meanwhile. */
  reconnected(profileId: string): void;
  /** An answer of `profileId`'s gateway carried `mode: "analyze"`. */
  analyzeSeen(profileId: string): void;
  /** The active profile changed in settings (marked sandbox or not). */
  profileChanged(profile: Profile): void;
  /** The feed of `profileId` streams, or the desk polls (and why). */
  feed(profileId: string, feed: SessionFeed): void;
  /** The active profile's view now; undefined before the first session. */
  view(): GatewayModeView | undefined;
}

type Reported = { mode: 'analyze' | 'live'; by: 'analyzer' | 'answer' } | undefined;

/** The mode and its reason from the profile and what its gateway reported. */
export function modeOf(profile: Profile, reported: Reported): { mode: SessionMode; modeWhy: string } {
  if (profile.kind === 'paper')
    return { mode: 'paper', modeWhy: "OrderDesk's own paper gateway: simulated orders" };
  if (reported?.mode === 'live')
    return {
      mode: 'live',
      modeWhy: profile.sandbox
        ? 'marked sandbox, but the gateway reports live mode: real money'
        : 'the gateway reports live mode: real money',
    };
  if (reported?.mode === 'analyze')
    return {
      mode: 'sandbox',
      modeWhy:
        reported.by === 'analyzer'
          ? 'the gateway reports analyze mode (its sandbox): simulated orders'
          : 'the gateway answers in analyze mode (its sandbox): simulated orders',
    };
  if (profile.sandbox) return { mode: 'sandbox', modeWhy: 'marked sandbox in its profile: simulated orders' };
  return { mode: 'live', modeWhy: 'a gateway profile: real money' };
}

export function createGatewayMode(deps: { emit: Emit; logger: Logger }): GatewayMode {
  let profile: Profile | undefined;
  let client: Pick<GatewayClient, 'analyzer'> | undefined;
  let reported: Reported;
  let feed: SessionFeed = { state: 'polling', reason: 'the feed is not open yet' };
  /** Bumped per session: an analyzer answer from an earlier one is dropped. */
  let generation = 0;
  let last = '';

  function view(): GatewayModeView | undefined {
    return profile && { profileId: profile.id, ...modeOf(profile, reported), feed };
  }
  function publish(): void {
    const v = view();
    if (!profile || !v) return;
    const said = JSON.stringify(v);
    if (said === last) return;
    last = said;
    deps.emit('session.gateway', v);
  }

  /** Asks the analyzer; an answer that is not one (not offered, refused) leaves the mode as it is. */
  function ask(): void {
    const p = profile;
    const c = client;
    if (!p || !c || p.kind === 'paper') return;
    const asked = generation;
    void c.analyzer().then(
      (r) => {
        if (asked !== generation) return;
        if (!r.ok) {
          deps.logger.debug('the gateway did not say its mode', { profileId: p.id, reason: r.error.kind });
          return;
        }
        reported = { mode: r.value.data.analyze_mode ? 'analyze' : 'live', by: 'analyzer' };
        deps.logger.info('gateway mode', { profileId: p.id, mode: reported.mode });
        publish();
      },
      () => undefined,
    );
  }

  return {
    open(next, nextClient) {
      generation++;
      profile = next;
      client = nextClient;
      reported = undefined;
      feed = { state: 'polling', reason: 'the feed is not open yet' };
      publish();
      ask();
    },
    reconnected(profileId) {
      if (profile?.id === profileId) ask();
    },
    analyzeSeen(profileId) {
      if (profile?.id !== profileId || reported?.mode === 'analyze') return;
      reported = { mode: 'analyze', by: 'answer' };
      publish();
    },
    profileChanged(next) {
      if (profile?.id !== next.id) return;
      profile = next;
      publish();
    },
    feed(profileId, next) {
      if (profile?.id !== profileId) return;
      feed = next;
      publish();
    },
    view,
  };
}
