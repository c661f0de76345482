// Browser mode's WebSocket frames: the page's calls and the host's replies and events. The frame is
// only the envelope; the call's input is validated by the router against CHANNELS, as over IPC.
import { z } from 'zod';
import { EVENT_NAMES } from './events.js';
import { ipcResult } from './result.js';

/** The path the page's bridge script connects to. */
export const BRIDGE_PATH = '/bridge';
/** A call frame larger than this gets a typed error reply (basket of 100 legs is ~30 kB). */
export const BRIDGE_FRAME_MAX_BYTES = 256 * 1024;
/** The socket's hard cap: a larger frame closes the connection (1009) before it is buffered. */
export const BRIDGE_SOCKET_MAX_BYTES = 1024 * 1024;

/** Page → host: one channel call; `id` pairs the reply with the call. */
export const BridgeCallFrame = z.strictObject({
  id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  channel: z.string().min(1).max(64),
  input: z.unknown().optional(),
});
export type BridgeCallFrame = z.infer<typeof BridgeCallFrame>;

/** Host → page: a call's result; `id` is null when the frame was too broken to carry one. */
export const BridgeReplyFrame = z.strictObject({
  type: z.literal('reply'),
  id: z.number().int().nullable(),
  result: ipcResult(z.unknown()),
});
export type BridgeReplyFrame = z.infer<typeof BridgeReplyFrame>;

/** Host → page: one event of the contract's EVENTS table. */
export const BridgeEventFrame = z.strictObject({
  type: z.literal('event'),
  name: z.enum(EVENT_NAMES as [string, ...string[]]),
  payload: z.unknown(),
});
export type BridgeEventFrame = z.infer<typeof BridgeEventFrame>;

export const BridgeHostFrame = z.discriminatedUnion('type', [BridgeReplyFrame, BridgeEventFrame]);
export type BridgeHostFrame = z.infer<typeof BridgeHostFrame>;
