// Dragging a horizontal price line on a chart (a bracket's stop or target): a press within a few
// pixels of a line takes it (the chart under it neither pans nor scales meanwhile), the line follows
// the pointer on the instrument's tick, and the drop says where it landed; Escape or a lost pointer
// puts it back. The chart library stays outside: the caller converts between price and the
// container's y and moves the drawn line.
import { droppedLevel, lineAt } from './protection-view';

export interface DragLine {
  key: string;
  price: number;
  tick: number;
}

export interface LineDragOptions {
  lines: () => readonly DragLine[];
  /** The container's y of a price (null off the scale). */
  toY: (price: number) => number | null;
  /** The price at the container's y (null off the scale). */
  toPrice: (y: number) => number | null;
  /** Moves the drawn line (during the drag, and back to `price` when it is called off). */
  move: (key: string, price: number) => void;
  /** The line was dropped at a new price (on the tick). */
  drop: (key: string, from: number, to: number) => void;
  /** A drag starts (true) or ends (false): the chart's own panning is held meanwhile. */
  hold?: (held: boolean) => void;
  tolerance?: number;
}

export function attachLineDrag(host: HTMLElement, o: LineDragOptions): () => void {
  let drag: { line: DragLine; pointer: number; to: number } | undefined;

  const yOf = (e: PointerEvent) => e.clientY - host.getBoundingClientRect().top;
  const hit = (e: PointerEvent) =>
    lineAt(
      yOf(e),
      o.lines().map((l) => ({ line: l, y: o.toY(l.price) })),
      o.tolerance ?? 6,
    )?.line;

  function end(commit: boolean): void {
    const d = drag;
    if (!d) return;
    drag = undefined;
    host.style.cursor = '';
    o.hold?.(false);
    if (commit && d.to !== d.line.price) o.drop(d.line.key, d.line.price, d.to);
    else o.move(d.line.key, d.line.price);
  }

  function down(e: PointerEvent): void {
    if (e.button !== 0 || drag) return;
    const line = hit(e);
    if (!line) return;
    // The library's own press (pan, scale) never starts: no compatibility mousedown after this.
    e.preventDefault();
    e.stopPropagation();
    host.setPointerCapture?.(e.pointerId);
    drag = { line, pointer: e.pointerId, to: line.price };
    host.style.cursor = 'ns-resize';
    o.hold?.(true);
  }

  function move(e: PointerEvent): void {
    if (!drag) {
      host.style.cursor = hit(e) ? 'ns-resize' : '';
      return;
    }
    if (e.pointerId !== drag.pointer) return;
    e.stopPropagation();
    const price = droppedLevel(o.toPrice(yOf(e)), drag.line.tick);
    if (price === undefined || price === drag.to) return;
    drag.to = price;
    o.move(drag.line.key, price);
  }

  function up(e: PointerEvent): void {
    if (!drag || e.pointerId !== drag.pointer) return;
    e.stopPropagation();
    end(true);
  }

  const cancel = () => end(false);
  const key = (e: KeyboardEvent) => {
    if (drag && e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      end(false);
    }
  };

  host.addEventListener('pointerdown', down, { capture: true });
  host.addEventListener('pointermove', move, { capture: true });
  host.addEventListener('pointerup', up, { capture: true });
  host.addEventListener('pointercancel', cancel, { capture: true });
  host.addEventListener('lostpointercapture', cancel);
  window.addEventListener('keydown', key, { capture: true });
  return () => {
    end(false);
    host.removeEventListener('pointerdown', down, { capture: true });
    host.removeEventListener('pointermove', move, { capture: true });
    host.removeEventListener('pointerup', up, { capture: true });
    host.removeEventListener('pointercancel', cancel, { capture: true });
    host.removeEventListener('lostpointercapture', cancel);
    window.removeEventListener('keydown', key, { capture: true });
  };
}
