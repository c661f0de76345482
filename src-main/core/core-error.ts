// A refusal a core service throws (profiles, secret store): it carries the IPC error kind it stands
// for, so the router answers it by its type, never by reading its message. Anything else thrown is
// a bug and becomes `internal`.
import type { IpcErrorKind } from '../contract/index.js';

export type CoreErrorKind = Extract<
  IpcErrorKind,
  'invalid_input' | 'not_found' | 'conflict' | 'secret_store' | 'storage'
>;

export class CoreError extends Error {
  override name = 'CoreError';
  constructor(
    readonly kind: CoreErrorKind,
    message: string,
  ) {
    super(message);
  }
}
