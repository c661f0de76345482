// Turning every failure into the gateway's error envelope `{status:"error", message, ...extra}`
// (spec §7.1): HttpErrors from routes, zod issues from the contract, and fastify's own body errors.
import type { Duplex } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { HttpError } from './route-kit.js';

export interface ErrorEnvelope {
  status: 'error';
  message: string;
  [extra: string]: unknown;
}

export const INVALID_KEY = 'Invalid openalgo apikey';
export const RATE_LIMITED = 'Rate limit exceeded. Please slow down your requests.';

export function envelope(err: HttpError): ErrorEnvelope {
  return { status: 'error', message: err.message, ...err.extra };
}

/** `symbols[0].exchange` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out;
}

/**
 * One readable sentence for the first issue. The contract's messages already name their field
 * (`symbol is required`, §7.3's `Symbol parameter is required…`); generic ones get the path in front.
 */
export function issueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const path = formatPath(issue.path);
  if (path === '') return issue.message;
  const last = issue.path[issue.path.length - 1];
  const named = typeof last === 'string' && issue.message.toLowerCase().includes(last.toLowerCase());
  if (named && issue.path.length === 1) return issue.message;
  return `${path}: ${issue.message}`;
}

interface FastifyLikeError {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
}

/**
 * Maps any thrown value to the HttpError to answer with. Fastify's body-parsing failures become
 * readable 400/413s; anything unknown is a real bug (500).
 */
export function toHttpError(err: unknown, bodyLimit: number): HttpError {
  if (err instanceof HttpError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as FastifyLikeError;
  const code = typeof e.code === 'string' ? e.code : '';
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpError(400, 'Content-Type must be application/json with a JSON object body');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, `Request body is too large (limit ${bodyLimit} bytes)`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpError(400, 'Request body is empty: send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HttpError(400, 'Request body is not valid JSON');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // fastify's message echoes the whole URL; the only path parameter is the ticker's.
      return new HttpError(400, 'ticker (EXCHANGE:SYMBOL in the path) is too long');
  }
  if (err instanceof SyntaxError || (status === 400 && /JSON|token|position/i.test(String(e.message)))) {
    return new HttpError(400, `Request body is not valid JSON: ${String(e.message)}`);
  }
  if (code.startsWith('FST_ERR_CTP') || code === 'FST_ERR_BAD_URL') {
    return new HttpError(400, typeof e.message === 'string' ? e.message : 'Bad request');
  }
  if (status >= 400 && status < 500) {
    return new HttpError(status, typeof e.message === 'string' ? e.message : 'Bad request');
  }
  return new HttpError(500, 'An unexpected error occurred');
}

/**
 * Answers with an error: the JSON envelope, or the bare message as text/plain for the ticker's
 * `format=txt` (spec §7.1). A 429 also carries `Retry-After`.
 */
export function sendError(reply: FastifyReply, err: HttpError, format: 'json' | 'txt' = 'json'): unknown {
  const retry = err.extra['retry_after'];
  if (typeof retry === 'number') reply.header('Retry-After', String(retry));
  reply.code(err.status);
  if (format === 'txt') return reply.type('text/plain; charset=utf-8').send(err.message);
  return reply.type('application/json; charset=utf-8').send(envelope(err));
}

/**
 * Node's HTTP parser rejects some requests before fastify sees them (request line and headers over
 * 16 KiB, malformed HTTP, a request timeout). Answer those with the error envelope too, then close.
 */
export function handleClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request line and headers are too large (limit 16 KiB)']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'Request timed out']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const body = JSON.stringify({ status: 'error', message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
