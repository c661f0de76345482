// Errors are values: every client call resolves to a GatewayResult, never throws.
import { ErrorBody } from '../contract/index.js';

export type GatewayErrorKind =
  | 'bad_input'
  | 'unauthorised'
  | 'forbidden'
  | 'not_offered'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'bad_response'
  | 'unknown_outcome'
  /** No API key is stored for this gateway: nothing was sent. */
  | 'no_key'
  /** The key store failed when the key was read: nothing was sent. */
  | 'secret_store'
  /** A semi-auto gateway queued the order for approval: not placed until someone approves it there. */
  | 'queued';

export interface GatewayError {
  kind: GatewayErrorKind;
  message: string;
  httpStatus?: number;
  /** Seconds to wait before the next call of this operation (429 only). */
  retryAfter?: number;
}

export type GatewayResult<T> = { ok: true; value: T } | { ok: false; error: GatewayError };

export function ok<T>(value: T): GatewayResult<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: GatewayError): GatewayResult<T> {
  return { ok: false, error };
}

export const UNKNOWN_OUTCOME_MESSAGE = 'outcome unknown — reconciling from the order book';
export const KEY_OR_SESSION_MESSAGE = 'invalid key or broker session expired';
export const SESSION_MESSAGE = 'broker session invalid or expired';

export function notOfferedMessage(op: string): string {
  return `the gateway does not offer ${op}`;
}

/** What an error response says: the ErrorBody message, else the trimmed text (never HTML noise). */
export function gatewayMessage(body: unknown, text: string): string {
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) return parsed.data.message;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  const t = text.trim();
  if (t === '' || t.startsWith('<')) return '';
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}

/** `retry_after` from the body (seconds), else the Retry-After header (seconds or an HTTP date). */
export function retryAfterSeconds(body: unknown, header: string | null, nowMs: number): number | undefined {
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success && parsed.data.retry_after !== undefined && parsed.data.retry_after > 0) {
    return parsed.data.retry_after;
  }
  if (header) {
    const s = Number(header.trim());
    if (Number.isFinite(s) && s >= 0) return s;
    const at = Date.parse(header);
    if (Number.isFinite(at)) return Math.max(0, Math.ceil((at - nowMs) / 1000));
  }
  return undefined;
}

/**
 * A 404 only means "this operation is not offered" when the route itself is missing: the generic
 * `{"message":"Not found","path":…}` body or a non-JSON page. A 404 about a thing (an unknown order
 * id, symbol or history range) is an answer about the input instead; a missing broker module is the
 * gateway's set-up (isBrokerModuleMissing), not remembered against one operation.
 */
export function isRouteMissing(body: unknown, message: string): boolean {
  if (body === undefined || body === null || typeof body !== 'object') return true;
  if ('path' in body) return true;
  const m = message.trim().toLowerCase();
  return m === '' || m === 'not found';
}

/** The gateway runs but has no module for its broker (upstream: 404 "Broker-specific module not found"). */
export function isBrokerModuleMissing(message: string): boolean {
  return /broker[- ]specific module not found|broker module not found/i.test(message);
}

/** Upstream answers a smart order with nothing to do with these texts, sometimes as HTTP 500 (§6). */
export function isSmartOrderNoOp(message: string): boolean {
  return /no action needed|no openposition found/i.test(message);
}

/** Classifies a non-2xx answer (smart-order no-ops are handled by the caller). */
export function errorFromHttp(
  op: string,
  status: number,
  body: unknown,
  text: string,
  retryAfter: number | undefined,
): GatewayError {
  const said = gatewayMessage(body, text);
  const withSaid = (base: string) =>
    said && said.toLowerCase() !== base ? `${base} (gateway: ${said})` : base;
  if (status === 400 || status === 422) {
    return { kind: 'bad_input', message: said || 'the gateway rejected the request', httpStatus: status };
  }
  if (status === 401) return { kind: 'unauthorised', message: withSaid(SESSION_MESSAGE), httpStatus: status };
  if (status === 403) {
    // Semi-auto mode refusals are permissions, not key problems: say what the gateway said.
    if (/not allowed in semi-auto mode/i.test(said)) {
      return { kind: 'forbidden', message: said, httpStatus: status };
    }
    return { kind: 'forbidden', message: withSaid(KEY_OR_SESSION_MESSAGE), httpStatus: status };
  }
  if (status === 404 || status === 405) {
    if (status === 404 && isBrokerModuleMissing(said)) {
      // Not this operation's absence but the gateway's set-up: every broker call fails until it is fixed.
      return {
        kind: 'not_offered',
        message: `the gateway has no module for its broker (gateway: ${said})`,
        httpStatus: status,
      };
    }
    if (status === 405 || isRouteMissing(body, said)) {
      return { kind: 'not_offered', message: notOfferedMessage(op), httpStatus: status };
    }
    return { kind: 'bad_input', message: said, httpStatus: status };
  }
  if (status === 429) {
    const error: GatewayError = {
      kind: 'rate_limited',
      message: said || 'rate limit exceeded',
      httpStatus: status,
    };
    if (retryAfter !== undefined) error.retryAfter = retryAfter;
    return error;
  }
  if (status >= 500) {
    return { kind: 'server', message: said || `gateway error (HTTP ${status})`, httpStatus: status };
  }
  if (status >= 400) {
    return {
      kind: 'bad_input',
      message: said || `the gateway rejected the request (HTTP ${status})`,
      httpStatus: status,
    };
  }
  // 1xx/3xx/2xx-with-error-body: the gateway answered something we cannot use.
  return { kind: 'server', message: said || `unexpected HTTP ${status}`, httpStatus: status };
}
