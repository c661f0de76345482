// The desktop shell's own settings (part of settings.json): launch at login, the ticket window's
// place and size, staying on top, and the global shortcut that brings the ticket forward.
import { z } from 'zod';

export const DEFAULT_GLOBAL_SHORTCUT = 'CommandOrControl+Shift+O';

const MODIFIERS = new Set(
  [
    'Command',
    'Cmd',
    'Control',
    'Ctrl',
    'CommandOrControl',
    'CmdOrCtrl',
    'Alt',
    'Option',
    'AltGr',
    'Shift',
    'Super',
    'Meta',
  ].map((m) => m.toLowerCase()),
);

const NAMED_KEYS = new Set(
  [
    'Plus',
    'Space',
    'Tab',
    'Capslock',
    'Numlock',
    'Scrolllock',
    'Backspace',
    'Delete',
    'Insert',
    'Return',
    'Enter',
    'Up',
    'Down',
    'Left',
    'Right',
    'Home',
    'End',
    'PageUp',
    'PageDown',
    'Escape',
    'Esc',
    'PrintScreen',
    'numdec',
    'numadd',
    'numsub',
    'nummult',
    'numdiv',
  ].map((k) => k.toLowerCase()),
);

function isKey(k: string): boolean {
  const lower = k.toLowerCase();
  return (
    /^[a-z0-9]$/.test(lower) ||
    /^[)!@#$%^&*(:;:+=<,_\-.>?/~`{\][|\\}"']$/.test(k) ||
    /^f([1-9]|1[0-9]|2[0-4])$/.test(lower) ||
    /^num[0-9]$/.test(lower) ||
    NAMED_KEYS.has(lower)
  );
}

/**
 * Why `accelerator` is not a usable global shortcut, or undefined when it is: modifiers and exactly
 * one key joined by '+' (Electron's accelerator grammar), with at least one modifier, since a bare
 * key would be taken from every other application.
 */
export function acceleratorProblem(accelerator: string): string | undefined {
  // "Shift++" would split into an empty part: the plus key is spelled "Plus".
  const parts = accelerator.split('+');
  if (parts.some((p) => p === '')) return 'shortcut parts must be joined by single "+" (the + key is "Plus")';
  const key = parts[parts.length - 1] ?? '';
  const modifiers = parts.slice(0, -1).map((m) => m.toLowerCase());
  if (modifiers.length === 0) return 'shortcut needs at least one modifier (e.g. CommandOrControl+Shift+O)';
  const unknown = modifiers.find((m) => !MODIFIERS.has(m));
  if (unknown !== undefined) return `shortcut modifier "${unknown}" is not one Electron knows`;
  if (new Set(modifiers).size !== modifiers.length) return 'shortcut repeats a modifier';
  if (!isKey(key)) return `shortcut key "${key}" is not one Electron knows`;
  return undefined;
}

export const GlobalShortcut = z
  .string({ error: 'globalShortcut must be a string' })
  .trim()
  .max(64, 'globalShortcut must be at most 64 characters')
  .superRefine((s, ctx) => {
    // Empty turns the shortcut off.
    if (s === '') return;
    const problem = acceleratorProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const coordinate = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(-100_000, `${field} is out of range`)
    .max(100_000, `${field} is out of range`);
const extent = (field: string, min: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(20_000, `${field} must be at most 20000`);

/** Where the ticket window was last (screen coordinates); the shell clamps it to a visible display. */
export const WindowBounds = z.strictObject({
  x: coordinate('x'),
  y: coordinate('y'),
  width: extent('width', 320),
  height: extent('height', 240),
});
export type WindowBounds = z.infer<typeof WindowBounds>;

const shellFields = {
  launchAtLogin: z.boolean({ error: 'launchAtLogin must be true or false' }),
  alwaysOnTop: z.boolean({ error: 'alwaysOnTop must be true or false' }),
  globalShortcut: GlobalShortcut,
  window: WindowBounds.nullable(),
  /** The desk's colours: dark (the trading default) or light (bright rooms, daylight). */
  theme: z.enum(['dark', 'light'], { error: 'theme must be dark or light' }),
};

export const ShellSettings = z.object({
  launchAtLogin: shellFields.launchAtLogin.default(false),
  alwaysOnTop: shellFields.alwaysOnTop.default(false),
  globalShortcut: shellFields.globalShortcut.default(DEFAULT_GLOBAL_SHORTCUT),
  /** Null until the window has been moved or resized once. */
  window: shellFields.window.default(null),
  theme: shellFields.theme.default('dark'),
});
export type ShellSettings = z.infer<typeof ShellSettings>;

/** A change to the shell settings: only the fields given change. */
export const ShellSettingsPatch = z.strictObject(shellFields).partial();
