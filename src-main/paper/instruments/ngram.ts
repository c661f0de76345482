// N-gram keys for the search index. Characters fold onto a 64-symbol alphabet (A-Z and 0-9 exactly,
// a few punctuation marks, everything else shares one code); folding only makes posting lists
// supersets, and every candidate is verified against the real rules, so results stay exact.
// Terms never contain whitespace (the query is split on it), so grams are taken within words only.

const OTHER = 63;
const CODES = new Uint8Array(128).fill(OTHER);
for (let c = 0; c < 26; c++) {
  CODES[65 + c] = c; // A-Z
  CODES[97 + c] = c; // a-z fold onto A-Z (tokens are matched unfolded; a superset is fine)
}
for (let d = 0; d < 10; d++) CODES[48 + d] = 26 + d;
"-.&|_/(),'".split('').forEach((ch, i) => (CODES[ch.charCodeAt(0)] = 36 + i));

export function charCode(unit: number): number {
  return unit < 128 ? (CODES[unit] as number) : OTHER;
}

/** Python str.isspace() for one UTF-16 unit. */
export function isPySpace(u: number): boolean {
  return (
    u === 32 ||
    (u >= 9 && u <= 13) ||
    (u >= 0x1c && u <= 0x1f) ||
    u === 0x85 ||
    u === 0xa0 ||
    u === 0x1680 ||
    (u >= 0x2000 && u <= 0x200a) ||
    u === 0x2028 ||
    u === 0x2029 ||
    u === 0x202f ||
    u === 0x205f ||
    u === 0x3000
  );
}

// Key space: unigrams, bigrams and trigrams, at any position in any field.
export const UNIGRAM_BASE = 0;
export const BIGRAM_BASE = UNIGRAM_BASE + 64;
export const TRIGRAM_BASE = BIGRAM_BASE + 64 * 64;
export const KEY_SPACE = TRIGRAM_BASE + 64 * 64 * 64;

/** Calls `emit` with every unigram, bigram and trigram key inside the words of `text` (with repeats). */
export function forEachGram(text: string, emit: (key: number) => void): void {
  let p1 = -1;
  let p2 = -1;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if (isPySpace(u)) {
      p1 = p2 = -1;
      continue;
    }
    const c = charCode(u);
    emit(UNIGRAM_BASE + c);
    if (p1 >= 0) emit(BIGRAM_BASE + p1 * 64 + c);
    if (p2 >= 0) emit(TRIGRAM_BASE + p2 * 4096 + p1 * 64 + c);
    p2 = p1;
    p1 = c;
  }
}

/** The grams a term needs: its trigrams when it has 3+ units, its bigram at 2, its unigram at 1. */
export function termGrams(term: string): number[] {
  const out: number[] = [];
  if (term.length === 1) {
    out.push(UNIGRAM_BASE + charCode(term.charCodeAt(0)));
  } else if (term.length === 2) {
    out.push(BIGRAM_BASE + charCode(term.charCodeAt(0)) * 64 + charCode(term.charCodeAt(1)));
  } else if (term.length >= 3) {
    forEachGram(term, (k) => {
      if (k >= TRIGRAM_BASE && !out.includes(k)) out.push(k);
    });
  }
  return out;
}
