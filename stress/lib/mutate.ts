// Mutations of a realistic JSON value, for the fuzz suite: numbers as strings and back, fields
// dropped, added or nulled, values replaced by arbitrary JSON, and bodies that are not JSON at all.
// Each case is drawn by fast-check (fixed seed) and applied here deterministically.
import fc from 'fast-check';

export const MUTATIONS = [
  'as-is',
  'numbers-as-strings',
  'strings-as-numbers',
  'drop-field',
  'extra-field',
  'null-field',
  'replace-value',
  'wrong-type-root',
  'html-page',
  'truncated',
  'random-text',
  'empty',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

export interface MutationCase {
  sample: number;
  mutation: Mutation;
  /** Which node of the value the mutation hits (modulo the node count). */
  at: number;
  value: unknown;
  cut: number;
  text: string;
}

export const mutationCase = (samples: number): fc.Arbitrary<MutationCase> =>
  fc.record({
    sample: fc.nat({ max: samples - 1 }),
    mutation: fc.constantFrom(...MUTATIONS),
    at: fc.nat(),
    value: fc.jsonValue({ maxDepth: 2 }),
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
    text: fc.string({ maxLength: 40 }),
  });

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every object or array inside `v` (v included), depth first. */
function containers(v: Json, out: (Json[] | { [k: string]: Json })[] = []) {
  if (v !== null && typeof v === 'object') {
    out.push(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) containers(child, out);
  }
  return out;
}

/** Rewrites every leaf of `v` with `f`. */
function mapLeaves(v: Json, f: (leaf: Json) => Json): Json {
  if (Array.isArray(v)) return v.map((x) => mapLeaves(x, f));
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapLeaves(x, f)]));
  return f(v);
}

/** The body text of `sample` under the mutation `c`. */
export function mutate(sample: unknown, c: MutationCase): string {
  const value = structuredClone(sample) as Json;
  const text = JSON.stringify(value);
  const nodes = containers(value);
  const node = nodes.length ? nodes[c.at % nodes.length] : undefined;
  const keyOf = (o: object) => {
    const keys = Array.isArray(o) ? o.map((_, i) => String(i)) : Object.keys(o);
    return keys.length ? keys[c.at % keys.length] : undefined;
  };
  const set = (o: Json[] | { [k: string]: Json }, k: string, v: Json | undefined) => {
    if (Array.isArray(o)) {
      if (v === undefined) o.splice(Number(k), 1);
      else o[Number(k)] = v;
    } else if (v === undefined) delete o[k];
    else o[k] = v;
  };
  switch (c.mutation) {
    case 'as-is':
      return text;
    case 'numbers-as-strings':
      return JSON.stringify(mapLeaves(value, (l) => (typeof l === 'number' ? String(l) : l)));
    case 'strings-as-numbers':
      return JSON.stringify(
        mapLeaves(value, (l) =>
          typeof l === 'string' && l.trim() !== '' && Number.isFinite(Number(l)) ? Number(l) : l,
        ),
      );
    case 'drop-field':
    case 'null-field':
    case 'replace-value': {
      if (!node) return JSON.stringify(c.value);
      const k = keyOf(node);
      if (k === undefined) return text;
      set(
        node,
        k,
        c.mutation === 'drop-field' ? undefined : c.mutation === 'null-field' ? null : (c.value as Json),
      );
      return JSON.stringify(value);
    }
    case 'extra-field': {
      if (!node || Array.isArray(node)) return text;
      node[c.text || 'extra'] = c.value as Json;
      return JSON.stringify(value);
    }
    case 'wrong-type-root':
      return JSON.stringify(c.value);
    case 'html-page':
      return `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>${c.text}</body></html>`;
    case 'truncated':
      return text.slice(0, Math.floor(text.length * c.cut));
    case 'random-text':
      return c.text;
    case 'empty':
      return '';
  }
}
