// Building IpcResults: from the gateway client's errors, from zod issues, from the core's refusals.
import type { z } from 'zod';
import type { IpcError, IpcErrorKind, IpcResult } from '../../contract/index.js';
import type { GatewayError, GatewayErrorKind, GatewayResult } from '../../gateway/index.js';

// Every gateway error kind must be an IPC error kind: this line stops compiling if one is added.
const _kindsAgree: GatewayErrorKind extends IpcErrorKind ? true : never = true;
void _kindsAgree;

export function okResult<T>(value: T): IpcResult<T> {
  return { ok: true, value };
}

export function failResult<T = never>(
  kind: IpcErrorKind,
  message: string,
  extra: Partial<Omit<IpcError, 'kind' | 'message'>> = {},
): IpcResult<T> {
  return { ok: false, error: { kind, message, ...extra } };
}

export function fromGatewayError(e: GatewayError): IpcError {
  const out: IpcError = { kind: e.kind, message: e.message };
  if (e.httpStatus !== undefined) out.httpStatus = e.httpStatus;
  if (e.retryAfter !== undefined) out.retryAfter = e.retryAfter;
  return out;
}

export function fromGateway<T>(r: GatewayResult<T>): IpcResult<T> {
  return r.ok ? r : { ok: false, error: fromGatewayError(r.error) };
}

/** Every issue, each with its field path, as one readable sentence. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.map(String).join('.');
      if (i.code === 'unrecognized_keys') return `unknown field(s): ${i.keys.join(', ')}`;
      return path && !i.message.startsWith(path) ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}

/** Each issue by its dotted field path, so a form can show the message next to its field. */
export function zodFields(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}
