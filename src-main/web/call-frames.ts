// Reading the page's call frames: text, bounded, JSON, the contract's BridgeCallFrame shape. Anything
// else becomes a typed error reply (with the call's id when one can be read), never an exception.
import {
  BRIDGE_FRAME_MAX_BYTES,
  BridgeCallFrame,
  type BridgeReplyFrame,
  type IpcError,
} from '../contract/index.js';
import { describeZodError, failResult } from '../core/router/index.js';

export type ParsedFrame = { ok: true; frame: BridgeCallFrame } | { ok: false; reply: BridgeReplyFrame };

export function errorReply(
  id: number | null,
  message: string,
  kind: IpcError['kind'] = 'invalid_input',
): BridgeReplyFrame {
  return { type: 'reply', id, result: failResult(kind, message) };
}

/** The id of a broken frame, when it has a usable one, so the page's call still gets its answer. */
function idOf(value: unknown): number | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 1 ? id : null;
}

export function parseCallFrame(data: Buffer | string, isBinary: boolean): ParsedFrame {
  if (isBinary) return { ok: false, reply: errorReply(null, 'frames must be text (JSON), not binary') };
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  // Checked before parsing, so an oversized frame costs no JSON work.
  if (size > BRIDGE_FRAME_MAX_BYTES)
    return {
      ok: false,
      reply: errorReply(null, `frame of ${size} bytes is over the ${BRIDGE_FRAME_MAX_BYTES}-byte limit`),
    };
  let json: unknown;
  try {
    json = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
  } catch {
    return { ok: false, reply: errorReply(null, 'frame is not valid JSON') };
  }
  const parsed = BridgeCallFrame.safeParse(json);
  if (!parsed.success)
    return { ok: false, reply: errorReply(idOf(json), `bad frame: ${describeZodError(parsed.error)}`) };
  return { ok: true, frame: parsed.data };
}
