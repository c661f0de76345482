// Key chords in one canonical form (`Ctrl+Alt+Shift+Meta+Key`): parsing what the trader types,
// reading a key press, and the two questions the resolver asks of a chord (does it act while typing,
// does it move within a focused control).

const MODIFIERS = ['Ctrl', 'Alt', 'Shift', 'Meta'] as const;
type Modifier = (typeof MODIFIERS)[number];
const MODIFIER_NAMES = new Map<string, Modifier>([
  ['ctrl', 'Ctrl'],
  ['control', 'Ctrl'],
  ['alt', 'Alt'],
  ['option', 'Alt'],
  ['shift', 'Shift'],
  ['meta', 'Meta'],
  ['cmd', 'Meta'],
  ['command', 'Meta'],
]);
const NAMED_KEYS = new Set([
  'Enter',
  'Escape',
  'Tab',
  'Space',
  'Backspace',
  'Delete',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
]);
const ALIASES = new Map([
  ['ESC', 'Escape'],
  ['RETURN', 'Enter'],
  [' ', 'Space'],
  ['SPACEBAR', 'Space'],
]);
const FUNCTION_KEY = /^F([1-9]|1\d|2[0-4])$/;

function canonicalKey(key: string): string | undefined {
  const alias = ALIASES.get(key.toUpperCase());
  if (alias) return alias;
  if (key.length === 1) return key.toUpperCase();
  const f = /^f(\d{1,2})$/i.exec(key);
  if (f && FUNCTION_KEY.test(`F${f[1]}`)) return `F${f[1]}`;
  for (const named of NAMED_KEYS) if (named.toLowerCase() === key.toLowerCase()) return named;
  return undefined;
}

function join(mods: ReadonlySet<Modifier>, key: string): string {
  return [...MODIFIERS.filter((m) => mods.has(m)), key].join('+');
}

const isLetter = (key: string): boolean => /^[A-Z]$/.test(key);

export type ChordParse = { ok: true; chord: string } | { ok: false; message: string };

/** `ctrl+shift+x` → `Ctrl+Shift+X`; refuses what no key press could produce or tell apart. */
export function parseChord(text: string): ChordParse {
  const t = text.trim();
  // `+` itself is a key: `Ctrl++` is Ctrl and plus.
  const parts = t.endsWith('++') ? [...t.slice(0, -2).split('+'), '+'] : t === '+' ? ['+'] : t.split('+');
  const keyPart = parts.pop() ?? '';
  const mods = new Set<Modifier>();
  for (const p of parts) {
    const m = MODIFIER_NAMES.get(p.trim().toLowerCase());
    if (!m)
      return {
        ok: false,
        message: `"${text}": ${p.trim() || 'an empty part'} is not a modifier (Ctrl, Alt, Shift, Meta)`,
      };
    if (mods.has(m)) return { ok: false, message: `"${text}" names ${m} twice` };
    mods.add(m);
  }
  const key = canonicalKey(keyPart.trim());
  if (!key) return { ok: false, message: `"${text}": ${keyPart.trim() || 'no key'} is not a key` };
  // Shift with a symbol is how the symbol is typed on some layouts: the press reads as the symbol alone.
  if (mods.has('Shift') && key.length === 1 && !isLetter(key))
    return { ok: false, message: `"${text}": Shift with ${key} cannot be told apart from ${key}` };
  return { ok: true, chord: join(mods, key) };
}

/** The part of a KeyboardEvent the resolver reads (so tests and callers need no DOM). */
export interface KeyPress {
  key: string;
  code?: string;
  ctrlKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  metaKey?: boolean;
  repeat?: boolean;
  isComposing?: boolean;
}

/** The canonical chord of a key press; null for a lone modifier or a key with no name. */
export function chordOf(e: KeyPress): string | null {
  if (['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'Dead', 'Unidentified', 'Process'].includes(e.key))
    return null;
  const mods = new Set<Modifier>();
  if (e.ctrlKey) mods.add('Ctrl');
  if (e.altKey) mods.add('Alt');
  if (e.metaKey) mods.add('Meta');
  let key: string | undefined;
  // With Ctrl/Alt/Meta held, `key` depends on the layout (macOS Alt+M is µ): the physical key decides.
  const physical = /^(?:Key([A-Z])|Digit(\d))$/.exec(e.code ?? '');
  if (mods.size > 0 && physical) key = physical[1] ?? physical[2];
  else key = canonicalKey(e.key);
  if (!key) return null;
  if (e.shiftKey && !(key.length === 1 && !isLetter(key))) mods.add('Shift');
  return join(mods, key);
}

/** Keys that act even while typing in a field: function keys, Esc, Enter, and Ctrl/Alt/Meta chords. */
export function worksWhileTyping(chord: string): boolean {
  const parts = chord.split('+');
  const key = chord.endsWith('++') ? '+' : (parts[parts.length - 1] ?? '');
  if (FUNCTION_KEY.test(key) || key === 'Escape' || key === 'Enter') return true;
  return parts.slice(0, -1).some((m) => m === 'Ctrl' || m === 'Alt' || m === 'Meta');
}

const NAVIGATION_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

/** A chord that moves within a focused control: a navigation key, alone or with Shift (selection). */
export function isNavigationChord(chord: string): boolean {
  const parts = chord.split('+');
  const key = parts[parts.length - 1] ?? '';
  return NAVIGATION_KEYS.has(key) && parts.slice(0, -1).every((m) => m === 'Shift');
}
