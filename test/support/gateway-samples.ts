// The real-gateway samples (copied from the shared research into test/fixtures/openalgo) and which
// contract schema reads each file.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  ClosePositionResponse,
  OPERATIONS,
  QueuedOrderResponse,
  WsClientMessage,
  WsServerMessage,
  type OperationName,
} from '../../src-main/contract/index.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/openalgo');

export interface Sample {
  file: string;
  /** `primary` or `variant N`. */
  label: string;
  request: unknown;
  response: unknown;
  httpStatus: number | string | undefined;
  note?: string;
}

const SampleFile = z.looseObject({
  request: z.unknown(),
  response: z.unknown(),
  source: z.string(),
  http_status: z.union([z.number(), z.string()]).optional(),
  note: z.string().optional(),
  variants: z
    .array(
      z.looseObject({
        request: z.unknown(),
        response: z.unknown(),
        source: z.string(),
        http_status: z.union([z.number(), z.string()]).optional(),
        note: z.string().optional(),
      }),
    )
    .default([]),
});

export function loadSamples(): Sample[] {
  const out: Sample[] = [];
  for (const file of readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const parsed = SampleFile.parse(JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')));
    const name = file.replace(/\.json$/, '');
    const entry = (
      label: string,
      v: z.infer<typeof SampleFile> | z.infer<typeof SampleFile>['variants'][number],
    ) => {
      const s: Sample = {
        file: name,
        label,
        request: v.request,
        response: v.response,
        httpStatus: v.http_status,
      };
      if (v.note !== undefined) s.note = v.note;
      return s;
    };
    out.push(entry('primary', parsed));
    parsed.variants.forEach((v, i) => out.push(entry(`variant ${i + 1}`, v)));
  }
  return out;
}

/** An error sample: a non-2xx status (numeric or described) or an error body. */
export function isErrorSample(s: Sample): boolean {
  if (typeof s.httpStatus === 'number' && (s.httpStatus < 200 || s.httpStatus >= 300)) return true;
  if (typeof s.httpStatus === 'string') return true; // "<broker HTTP status>": a passed-through failure
  return (
    s.response !== null &&
    typeof s.response === 'object' &&
    (s.response as { status?: unknown }).status === 'error'
  );
}

/** Files named after their path rather than the operation. */
const RENAMED: Partial<Record<string, OperationName>> = {
  pnl_symbols: 'pnlsymbols',
  analyzer_toggle: 'analyzertoggle',
};

/** File name → the client operation that answers with it. */
export const FILE_OPERATION: Partial<Record<string, OperationName>> = {
  ...Object.fromEntries(
    (Object.keys(OPERATIONS) as OperationName[])
      .filter((n) => n !== 'closepositionHosted' && !Object.values(RENAMED).includes(n))
      .map((n) => [n, n]),
  ),
  ...RENAMED,
};

/**
 * Success samples of files that are not an operation of the contract but that a contract schema
 * reads anyway (same shape as an operation's answer).
 */
export const EXTRA_SCHEMAS: Record<string, z.ZodType> = {
  websocket: WsServerMessage,
};

/** Request schemas of files that are not an operation (websocket: the messages a client sends). */
export const EXTRA_REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  websocket: WsClientMessage,
};

/** positionsopen.json's last variant is the hosted closeposition answer (Router-IMC docs). */
/** A semi-auto gateway's "queued for approval" answer: a success that places nothing yet. */
export function isQueuedSample(s: Sample): boolean {
  return (s.response as { mode?: unknown } | null)?.mode === 'semi_auto';
}

export function successSchemaFor(s: Sample): z.ZodType | undefined {
  if (isQueuedSample(s)) return QueuedOrderResponse;
  if (s.file === 'positionsopen' && (s.response as { message?: unknown }).message !== undefined) {
    return ClosePositionResponse;
  }
  const op = FILE_OPERATION[s.file];
  if (op) return OPERATIONS[op].response;
  return EXTRA_SCHEMAS[s.file];
}

/** Error-only files: generic envelopes any operation may answer with. */
export const ENVELOPE_FILES = ['not_found', 'rate_limited'] as const;
