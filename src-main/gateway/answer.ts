// How the gateway client reads one exchange (http.ts) into a result: a transport failure, a 2xx answer
// parsed with the operation's schema, a smart order's no-op, an error body. A mutation whose outcome
// cannot be read is `unknown_outcome` (architecture rule 4), never a failure that invites a resend.
import type { z } from 'zod';
import { QueuedOrderResponse, SmartOrderResponse, type OperationName } from '../contract/index.js';
import type { Clock } from './clock.js';
import {
  UNKNOWN_OUTCOME_MESSAGE,
  errorFromHttp,
  fail,
  gatewayMessage,
  isBrokerModuleMissing,
  isSmartOrderNoOp,
  ok,
  retryAfterSeconds,
  type GatewayResult,
} from './errors.js';
import type { Exchange } from './http.js';
import type { Priority } from './rate-budget.js';

/** Reads a 2xx answer; on failure says why and hands back the JSON (if any) to look for an error body. */
export type Parser<T> = (
  text: string,
) => { ok: true; value: T } | { ok: false; body: unknown; detail: string };

export interface OpSpec {
  path: string;
  request: z.ZodType;
  response: z.ZodType;
  kind: Priority;
}

/** What the client learns from answers, per path: kept by the client across calls. */
export interface AnswerMemory {
  /** Paths answered "route missing", with the operation that found out. */
  missing: Map<string, OperationName>;
  /** No call before this time (ms), after a 429 with retry_after. */
  cooldownUntil: Map<string, number>;
}

/**
 * Turns one exchange into a result; `parse` reads a 2xx answer's text. What the answer teaches about
 * the gateway (a missing route, a 429's retry_after) is written to `memory`.
 */
export function interpret<T>(
  name: OperationName,
  spec: OpSpec,
  ex: Exchange,
  parse: Parser<T>,
  clock: Clock,
  memory: AnswerMemory,
): GatewayResult<T> {
  const mutation = spec.kind === 'mutation';
  if (ex.type === 'failed') {
    if (ex.reason === 'not_sent') {
      return fail({ kind: 'network', message: `cannot reach the gateway: ${ex.detail}` });
    }
    // A 4xx status line means the gateway refused before acting, even if the body was lost.
    if (ex.status !== undefined && ex.status >= 400 && ex.status < 500) {
      return fail(errorFromHttp(name, ex.status, undefined, '', undefined));
    }
    if (mutation) return fail({ kind: 'unknown_outcome', message: UNKNOWN_OUTCOME_MESSAGE });
    if (ex.reason === 'timeout') return fail({ kind: 'timeout', message: ex.detail });
    return fail({ kind: 'network', message: `the connection to the gateway failed: ${ex.detail}` });
  }

  const body = parseJson(ex.text);
  if (name === 'placesmartorder') {
    // "No action needed" / "No OpenPosition Found" is a no-op, even as HTTP 500 (gateway-behaviour §6).
    const said = gatewayMessage(body, ex.text);
    if ((ex.status < 300 || ex.status >= 500) && isSmartOrderNoOp(said)) {
      const value = SmartOrderResponse.safeParse({
        ...(isRecord(body) ? body : {}),
        status: 'success',
        message: said,
      });
      if (value.success) return ok(value.data as T);
    }
  }

  if (ex.status >= 200 && ex.status < 300) {
    const parsed = parse(ex.text);
    if (parsed.ok) return ok(parsed.value);
    if (isRecord(parsed.body) && parsed.body.status === 'error') {
      return fail(errorFromHttp(name, ex.status, parsed.body, ex.text, undefined));
    }
    if (mutation) {
      const queued = QueuedOrderResponse.safeParse(parsed.body);
      if (queued.success) {
        return fail({
          kind: 'queued',
          message: `the gateway queued the order for approval in its Action Center (pending order ${queued.data.pending_order_id}): it is not placed until approved there`,
        });
      }
      // The gateway accepted a mutation but we cannot read what it did: only the order book can
      // tell. That includes a "success" without what the operation returns (placeorder's orderid).
      return fail({ kind: 'unknown_outcome', message: unknownBecause(parsed.body, parsed.detail) });
    }
    return fail({
      kind: 'bad_response',
      message: `the gateway's answer could not be read: ${parsed.detail}`,
      httpStatus: ex.status,
    });
  }

  const retryAfter = retryAfterSeconds(body, ex.headers.get('retry-after'), clock.now());
  const error = errorFromHttp(name, ex.status, body, ex.text, retryAfter);
  // Remembered only for a missing route: a missing broker module can be installed while we run.
  if (error.kind === 'not_offered' && !isBrokerModuleMissing(gatewayMessage(body, ex.text)))
    memory.missing.set(spec.path, name);
  if (error.kind === 'rate_limited' && retryAfter !== undefined) {
    memory.cooldownUntil.set(spec.path, clock.now() + retryAfter * 1000);
  }
  return fail(error);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The unknown-outcome message, saying why when the answer was JSON (a success missing its orderid). */
function unknownBecause(body: unknown, detail: string): string {
  if (!isRecord(body)) return UNKNOWN_OUTCOME_MESSAGE;
  const said = body.status === 'success' ? 'the gateway answered success but' : "the gateway's answer:";
  return `${UNKNOWN_OUTCOME_MESSAGE} (${said} ${detail})`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
