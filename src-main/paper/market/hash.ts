// Stateless 32-bit hashing: every simulated number is a pure function of (seed, key, time), so any
// second of any year can be evaluated directly without replaying history.

/** murmur3's finaliser: a cheap, well-mixed bijection on 32-bit integers. */
export function fmix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of two integers (any 32-bit range; larger values wrap). */
export function hash2(a: number, b: number): number {
  return fmix32(a ^ fmix32((b + 0x9e3779b9) | 0));
}

export function hash3(a: number, b: number, c: number): number {
  return hash2(hash2(a, b), c);
}

/** FNV-1a over UTF-16 code units, finalised; stable across runs and platforms. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  return fmix32(h);
}

/** A hash mapped to [0, 1). */
export function unit(h: number): number {
  return h / 4294967296;
}
