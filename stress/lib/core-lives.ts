// The core's lives on one data dir, for the restart scenarios: each life starts the core's process,
// opens the desk and gives it the key again (keys live in memory only), then waits for the profile's
// "connected"; the first life also adds the profile, sets the stress risk limits and switches to it.
// Every life's events land in one sink, stamped with the life that sent them.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { JournalEntry, type IpcResult } from '../../src-main/contract/index.js';
import {
  connectDesk,
  placeholderRenderer,
  startCoreProcess,
  type BridgeEvent,
  type CoreProcess,
  type DeskLink,
} from './core-process.js';
import { STRESS_RISK } from './desk-session.js';
import { sleep } from './gateway-child.js';

/** Polls `cond` every 25 ms until it holds or `ms` have passed; its last answer. */
export async function until(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(25)) if (await cond()) return true;
  return cond();
}

/** The value of a call that must succeed; a refusal throws with its kind and words. */
export function must<T>(r: IpcResult<T>, what: string): T {
  if (!r.ok) throw new Error(`${what} refused: ${r.error.kind}: ${r.error.message}`);
  return r.value;
}

export interface CoreLivesOptions {
  /** The scenario's folder: the core's data dir and the placeholder renderer go below it. */
  base: string;
  /** The gateway's API key, given to every life. */
  key: string;
  /** The profile the first life adds. */
  profile: { name: string; baseUrl: string; feedUrl?: string };
  /** Runs before each life's process starts (n = 1 for the first), on the data dir at rest. */
  beforeStart?: (life: number, coreDir: string) => void;
}

export interface CoreLife {
  /** Spawn to the printed link. */
  startMs: number;
  /** Spawn, link and key to "connected". */
  connectedMs: number;
}

export interface CoreLives {
  coreDir: string;
  sink: { events: BridgeEvent[]; badFrames: string[] };
  /** The life now running (0 before the first). */
  life(): number;
  /** The profile's id, once the first life has added it. */
  profileId(): string;
  core(): CoreProcess;
  link(): DeskLink;
  /** The next life, up to "connected". */
  bringUp(): Promise<CoreLife>;
  /** The journal's placeorder entries, through the running life's desk. */
  placeorderJournal(): Promise<JournalEntry[]>;
  /** Closes the desk and SIGKILLs the running core. */
  stop(): Promise<void>;
}

export function coreLives(o: CoreLivesOptions): CoreLives {
  const coreDir = join(o.base, 'core');
  mkdirSync(coreDir, { recursive: true });
  const renderer = placeholderRenderer(join(o.base, 'renderer'));
  const sink = { events: [] as BridgeEvent[], badFrames: [] as string[] };
  let core: CoreProcess | undefined;
  let link: DeskLink | undefined;
  let life = 0;
  let profileId = '';

  const connectedIn = (n: number) =>
    sink.events.some((e) => {
      const p = (e.payload ?? {}) as { profileId?: string; state?: string };
      return (
        e.life === n &&
        e.name === 'session.connection' &&
        p.profileId === profileId &&
        p.state === 'connected'
      );
    });
  const running = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`no core life is running (${what})`);
    return v;
  };

  return {
    coreDir,
    sink,
    life: () => life,
    profileId: () => profileId,
    core: () => running(core, 'core'),
    link: () => running(link, 'link'),
    async bringUp() {
      const t0 = Date.now();
      life += 1;
      o.beforeStart?.(life, coreDir);
      const started = await startCoreProcess(coreDir, renderer);
      core = started;
      const desk = await connectDesk(started, life, sink);
      link = desk;
      if (life === 1) {
        const list = must(
          (await desk.invoke('profiles.add', o.profile)) as IpcResult<{
            profiles: { id: string; name: string }[];
          }>,
          'profiles.add',
        );
        profileId = list.profiles.find((p) => p.name === o.profile.name)?.id ?? '';
        must(await desk.invoke('settings.update', { risk: STRESS_RISK }), 'settings.update');
      }
      // In memory only (--no-keychain): every life is given the key again, as the trader would be.
      must(await desk.invoke('apiKey.set', { key: o.key, profileId }), 'apiKey.set');
      if (life === 1) must(await desk.invoke('profiles.switch', { id: profileId }), 'profiles.switch');
      if (!(await until(() => connectedIn(life), 30_000)))
        throw new Error(`core life ${life} never connected`);
      return { startMs: started.startMs, connectedMs: Date.now() - t0 };
    },
    async placeorderJournal() {
      const desk = running(link, 'journal');
      return JournalEntry.array().parse(
        must(await desk.invoke('journal.query', { operation: 'placeorder', limit: 1000 }), 'journal.query'),
      );
    },
    async stop() {
      link?.close();
      if (core) await core.kill();
    },
  };
}
