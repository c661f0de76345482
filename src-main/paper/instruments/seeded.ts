// Deterministic pseudo-randomness keyed by (seed, label): the same inputs always give the same value.

/** A 32-bit FNV-1a hash of the label, mixed with the seed. */
function hash32(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ (seed | 0)) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // Final avalanche (murmur3 fmix32) so nearby seeds give unrelated values.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1). */
export function unitFor(seed: number, label: string): number {
  return hash32(seed, label) / 4_294_967_296;
}
