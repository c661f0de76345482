// Where the ticket window opens: the remembered bounds, moved and shrunk onto a display that exists now
// (a monitor unplugged since, a resolution change), so the window is never off screen. Pure.
import type { Rectangle } from 'electron';
import { WindowBounds } from '../contract/index.js';
import { MIN_WINDOW_SIZE } from './window-options.js';

function overlap(a: Rectangle, b: Rectangle): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

/**
 * The bounds to open with, or undefined for the default size centred (nothing remembered, or no
 * display known). The display it overlaps most wins, the primary (first) when it overlaps none; the
 * window then fits wholly inside that display's work area.
 */
export function placeWindow(
  saved: WindowBounds | null,
  workAreas: readonly Rectangle[],
): Rectangle | undefined {
  if (!saved || workAreas.length === 0) return undefined;
  let best = workAreas[0] as Rectangle;
  let bestArea = 0;
  for (const wa of workAreas) {
    const area = overlap(saved, wa);
    if (area > bestArea) [best, bestArea] = [wa, area];
  }
  const width = clamp(saved.width, Math.min(MIN_WINDOW_SIZE.width, best.width), best.width);
  const height = clamp(saved.height, Math.min(MIN_WINDOW_SIZE.height, best.height), best.height);
  return {
    x: clamp(saved.x, best.x, best.x + best.width - width),
    y: clamp(saved.y, best.y, best.y + best.height - height),
    width,
    height,
  };
}

/** Bounds as the window reports them, in the settings' shape; undefined when not storable. */
export function boundsToSave(b: Rectangle): WindowBounds | undefined {
  const parsed = WindowBounds.safeParse({
    x: Math.round(b.x),
    y: Math.round(b.y),
    width: Math.round(b.width),
    height: Math.round(b.height),
  });
  return parsed.success ? parsed.data : undefined;
}
