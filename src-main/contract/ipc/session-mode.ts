// What the active profile talks to: simulated money (the embedded paper gateway, or a gateway in
// analyze mode, a sandbox) or real money, and whether its feed streams or the desk polls. A leaf
// module so the session snapshot, its `session.gateway` event and the tray state (events.ts) share
// the one enum without importing each other.
import { z } from 'zod';

/**
 * `paper`: the embedded paper gateway; `sandbox`: a gateway that reports analyze mode (its
 * /api/v1/analyzer, or `mode: "analyze"` on an answer), or a profile marked sandbox by hand;
 * `live`: any other gateway profile (real money).
 */
export const SESSION_MODES = ['paper', 'sandbox', 'live'] as const;
export const SessionMode = z.enum(SESSION_MODES);
export type SessionMode = z.infer<typeof SessionMode>;

/** `streaming`: the profile's WebSocket feed is live; `polling`: the desk reads the books on a timer. */
export const FEED_STATES = ['streaming', 'polling'] as const;
export const SessionFeed = z.object({
  state: z.enum(FEED_STATES),
  /** The feed URL in use or tried (never carries the key). */
  url: z.string().optional(),
  /** Why the desk polls, in words (no feed, feed down, key withheld from the feed). */
  reason: z.string().optional(),
});
export type SessionFeed = z.infer<typeof SessionFeed>;

/** The active profile's mode (and why, in words) and its feed; sent whole at each change. */
export const SessionGatewayEvent = z.object({
  profileId: z.string(),
  mode: SessionMode,
  modeWhy: z.string(),
  feed: SessionFeed,
});
export type SessionGatewayEvent = z.infer<typeof SessionGatewayEvent>;
