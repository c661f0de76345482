// A view of the active profile the core sends whole (`guard.state`, `protection.brackets`,
// `strategies.list`): read once through the channel of the same name, then replaced by each event
// of that profile. Another
// profile's events and older ones are ignored; a read that an event overtook is dropped; a profile
// switch and a link regained read again.
import type { BridgeApi, IpcError } from '@contract';
import type { LinkState } from './bridge';

type Followed = 'guard.state' | 'protection.brackets' | 'strategies.list';
type ViewOf<N extends Followed> = N extends 'guard.state'
  ? import('@contract').GuardView
  : N extends 'strategies.list'
    ? import('@contract').StrategiesView
    : import('@contract').BracketsView;

export interface FollowOptions<N extends Followed> {
  bridge: BridgeApi;
  name: N;
  onLinkChange?: (cb: (state: LinkState) => void) => () => void;
  /** The profile the desk shows, once known. */
  profileId(): string | undefined;
  apply(view: ViewOf<N>): void;
  /** Another profile is active: forget the old one's view (a read follows). */
  switched(profileId: string): void;
  /** A read failed (its error), or succeeded after one had (undefined). */
  failed(error: IpcError | undefined): void;
}

/** Calls `reload` when the link comes back after it was lost (events sent meanwhile are gone). */
export function reloadOnRelink(
  onLinkChange: FollowOptions<Followed>['onLinkChange'],
  reload: () => unknown,
): () => void {
  let lost = false;
  return (
    onLinkChange?.((state) => {
      if (state === 'lost') lost = true;
      else if (lost) {
        lost = false;
        void reload();
      }
    }) ?? (() => undefined)
  );
}

export interface Follower<N extends Followed> {
  start(): () => void;
  reload(): Promise<void>;
  /** A view an action answered with: applied, and newer than any read still out. */
  answered(view: ViewOf<N>): void;
}

export function followView<N extends Followed>(o: FollowOptions<N>): Follower<N> {
  let seq = 0;
  /** Bumped by each event applied: a read that started before one lands stale and is dropped. */
  let generation = 0;
  async function reload(): Promise<void> {
    const started = generation;
    const r = await o.bridge.invoke(o.name);
    if (!r.ok) {
      o.failed(r.error);
      return;
    }
    o.failed(undefined);
    if (started !== generation) return;
    const view = r.value as ViewOf<N>;
    // A switch made while the read was out: its own read answers for the new profile.
    const shown = o.profileId();
    if (shown !== undefined && view.profileId !== shown) return;
    o.apply(view);
  }
  return {
    reload,
    answered(view) {
      generation += 1;
      o.apply(view);
    },
    start() {
      const offs = [
        o.bridge.on(o.name, (e) => {
          if (e.seq <= seq) return;
          // Another profile's view (a switch in flight) is not this desk's.
          const shown = o.profileId();
          if (shown !== undefined && e.profileId !== shown) return;
          seq = e.seq;
          generation += 1;
          const { seq: _seq, ...view } = e;
          o.apply(view as unknown as ViewOf<N>);
        }),
        o.bridge.on('profiles.switched', (e) => {
          if (e.profileId === o.profileId()) return;
          o.switched(e.profileId);
          void reload();
        }),
      ];
      const offLink = reloadOnRelink(o.onLinkChange, reload);
      void reload();
      return () => {
        offLink();
        for (const off of offs) off();
      };
    },
  };
}
