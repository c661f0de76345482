// What a refused or failed market read says, and where: a refusal that is really "the gateway cannot
// be had" (down, slow, no key, key refused) is the banner's word once, not every row's; one about the
// instrument itself (unknown symbol, a bad exchange) stays on its row, short, on one line.
import type { IpcError, IpcErrorKind } from '@contract';

/** Refusals that say the gateway could not be had: the connection's word, asked again later. */
export const GATEWAY_DOWN: ReadonlySet<IpcErrorKind> = new Set([
  'network',
  'timeout',
  'server',
  'rate_limited',
  'bad_response',
]);
/** Refusals of the key (missing, refused): the key banner's word. */
export const KEY_REFUSED: ReadonlySet<IpcErrorKind> = new Set(['unauthorised', 'forbidden', 'no_key']);

/** The refusal is about the gateway or its key, not about one instrument. */
export function isLinkProblem(kind: IpcErrorKind): boolean {
  return GATEWAY_DOWN.has(kind) || KEY_REFUSED.has(kind);
}

/** The first line of a message, without a stack or a socket's second and third lines. */
export function oneLine(message: string): string {
  return (message.split(/\r?\n/)[0] ?? '').trim();
}

/** What an instrument's row says of its refusal: undefined for one that belongs to the banner. */
export function rowProblem(error: IpcError | undefined): string | undefined {
  if (!error || isLinkProblem(error.kind)) return undefined;
  return oneLine(error.message);
}
