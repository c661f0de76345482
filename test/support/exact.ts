// Checks an answer against a contract schema *exactly*. The contract's response schemas are tolerant
// (numbers may arrive as strings, missing values become 0 or ''), so a plain parse cannot catch a paper
// gateway that emits the wrong JSON types. Parsing must be the identity: any coercion, default or
// normalisation the schema had to apply shows up as a difference.
import { expect } from 'vitest';
import type { z } from 'zod';

export function expectExact<S extends z.ZodType>(schema: S, json: unknown): z.output<S> {
  const parsed = schema.parse(json);
  expect(parsed).toStrictEqual(json);
  return parsed;
}
