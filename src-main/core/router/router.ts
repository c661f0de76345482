// The router: one handler per contract channel. Input is validated against the channel's schema
// before the handler runs, so invalid input never reaches the gateway (architecture rule 3). A
// service's typed refusal (CoreError) is answered with its own kind; anything else a handler throws
// is a bug: an `internal` error with its message redacted, never a rejection. Every answer, success or
// error, passes through `redact` on its way out: no key reaches the bridge in any letter case.
import {
  CHANNELS,
  type Channel,
  type ChannelArgs,
  type ChannelOutput,
  type IpcResult,
  errorMessage,
} from '../../contract/index.js';
import { CoreError } from '../core-error.js';
import type { Logger } from '../ports.js';
import { describeZodError, failResult, zodFields } from './results.js';

export type Handlers = {
  [C in Channel]: (input: ChannelArgs<C>) => Promise<IpcResult<ChannelOutput<C>>>;
};

export interface Router {
  /** Validates `input` for `channel` and runs its handler. Unknown channels are refused. */
  invoke<C extends Channel>(channel: C, input?: unknown): Promise<IpcResult<ChannelOutput<C>>>;
  invoke(channel: string, input?: unknown): Promise<IpcResult<unknown>>;
  readonly channels: readonly Channel[];
}

export function createRouter(
  handlers: Handlers,
  options: { logger: Logger; redact: <T>(value: T) => T },
): Router {
  const channels = Object.keys(CHANNELS) as Channel[];
  const known = new Set<string>(channels);

  async function invoke(channel: string, input?: unknown): Promise<IpcResult<unknown>> {
    if (typeof channel !== 'string' || !known.has(channel))
      return failResult('invalid_input', `unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}`);
    const c = channel as Channel;
    const parsed = CHANNELS[c].input.safeParse(input);
    if (!parsed.success)
      return failResult('invalid_input', `${c}: ${describeZodError(parsed.error)}`, {
        fields: zodFields(parsed.error),
      });
    const handler = handlers[c] as (input: unknown) => Promise<IpcResult<unknown>>;
    try {
      return options.redact(await handler(parsed.data));
    } catch (err) {
      if (err instanceof CoreError) return failResult(err.kind, options.redact(err.message));
      const message = options.redact(errorMessage(err));
      options.logger.error('handler failed', { channel: c, error: message });
      return failResult('internal', `${c} failed: ${message}`);
    }
  }

  return { invoke: invoke as Router['invoke'], channels };
}
