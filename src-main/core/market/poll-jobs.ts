// The market watch's polling jobs: one profile's polling state, the focused depth's job, and the
// round-robin ring of the rest (quote batches or single quotes, then every unfocused depth), with
// the backoff each job waits out after a failure.
import type { GatewayClient } from '../../gateway/index.js';
import { instrumentKey, uniqueInstruments, type Instrument } from './instruments.js';
import type { Subscriptions } from './subscriptions.js';

/** The gateway calls the market watch makes. */
export type MarketClient = Pick<GatewayClient, 'multiquotes' | 'quotes' | 'depth' | 'load'>;

/** The gateway's multiquotes limit. */
const BATCH = 500;

export type Job =
  | { id: string; kind: 'multiquotes'; symbols: Instrument[] }
  | { id: string; kind: 'quotes'; symbol: Instrument }
  | { id: string; kind: 'depth'; symbol: Instrument };
export type Lane = 'focus' | 'shared';

interface Backoff {
  failures: number;
  retryAt: number;
  /** The error kind already reported in this run of failures. */
  reported: string;
}

/** One profile's polling state; replaced whole on a switch, so late answers of the old one are ignored. */
export interface Live {
  profileId: string;
  client: MarketClient;
  /** Known to this gateway (validated once). */
  valid: Set<string>;
  /** Not known to this gateway: reported once, not polled. */
  unknown: Set<string>;
  multiquotes: boolean;
  inFlight: Set<string>;
  backoff: Map<string, Backoff>;
  outstanding: number;
  lastFocusAt: number;
  lastSharedAt: number;
  /** The shared job served last (round-robin position). */
  cursor: string | undefined;
  sent: { focus: number; shared: number };
}

/** The focused depth instrument's job, unless this gateway does not know it. */
export function focusJob(s: Live, subs: Subscriptions): Job | undefined {
  const f = subs.focused();
  if (!f || s.unknown.has(instrumentKey(f))) return undefined;
  return { id: `d:${instrumentKey(f)}`, kind: 'depth', symbol: f };
}

/** The round-robin ring: quote batches (or single quotes), then every unfocused depth. */
export function sharedJobs(s: Live, subs: Subscriptions): Job[] {
  const polled = (i: Instrument) => !s.unknown.has(instrumentKey(i));
  const quoted = uniqueInstruments([...subs.following('ltp'), ...subs.following('quote')]).filter(polled);
  const jobs: Job[] = [];
  if (s.multiquotes) {
    for (let k = 0; k * BATCH < quoted.length; k++)
      jobs.push({ id: `mq:${k}`, kind: 'multiquotes', symbols: quoted.slice(k * BATCH, (k + 1) * BATCH) });
  } else {
    for (const i of quoted) jobs.push({ id: `q:${instrumentKey(i)}`, kind: 'quotes', symbol: i });
  }
  const focus = subs.focused();
  const focusKey = focus ? instrumentKey(focus) : undefined;
  for (const i of subs.following('depth').filter(polled)) {
    const key = instrumentKey(i);
    if (key !== focusKey) jobs.push({ id: `d:${key}`, kind: 'depth', symbol: i });
  }
  return jobs;
}

/** When a backed-off job may be sent again (-Infinity: now). */
export const waitingUntil = (s: Live, job: Job) => s.backoff.get(job.id)?.retryAt ?? -Infinity;
const ready = (s: Live, job: Job, now: number) => !s.inFlight.has(job.id) && waitingUntil(s, job) <= now;

/** The next ready job after the cursor, going round; with when the first backed-off one is due. */
export function nextShared(s: Live, jobs: Job[], now: number): { job?: Job; retryAt: number } {
  const start = jobs.findIndex((j) => j.id === s.cursor) + 1;
  let retryAt = Infinity;
  for (let n = 0; n < jobs.length; n++) {
    const job = jobs[(start + n) % jobs.length];
    if (!job) continue;
    if (ready(s, job, now)) return { job, retryAt };
    if (!s.inFlight.has(job.id)) retryAt = Math.min(retryAt, waitingUntil(s, job));
  }
  return { retryAt };
}
