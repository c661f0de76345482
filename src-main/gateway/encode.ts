// Request encoding and validation messages shared by the client's operations.
import type { z } from 'zod';

/**
 * Numbers go out as strings, as in every spec and upstream sample (`"quantity": "1"`): the gateway's
 * numeric fields accept both, and strings avoid float artefacts such as `65.0` reaching a broker.
 */
export function numbersAsStrings(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value;
  if (Array.isArray(value)) return value.map(numbersAsStrings);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = numbersAsStrings(v);
    return out;
  }
  return value;
}

/** One readable sentence from a zod failure; nested fields are named by their path. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String);
      return path.length > 1 ? `${path.join('.')}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
