// jsdom has no layout: no ResizeObserver, no Element.scrollTo. virtua's VList needs both (to learn its
// viewport's height, to scroll a focused row into view). This ResizeObserver reports every observed
// element at a fixed size once, so a list renders the rows that fit (rows themselves have no
// offsetParent in jsdom and keep the 28 px size hint); scrollTo moves scrollTop.
type Callback = (entries: { target: Element; contentRect: { width: number; height: number } }[]) => void;

export function installLayout(height = 600, width = 1200): void {
  class FixedResizeObserver {
    readonly #cb: Callback;
    constructor(cb: Callback) {
      this.#cb = cb;
    }
    observe(target: Element): void {
      queueMicrotask(() => this.#cb([{ target, contentRect: { width, height } }]));
    }
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.assign(window, { ResizeObserver: FixedResizeObserver });
  Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number) {
    if (typeof options === 'object' && options.top !== undefined) this.scrollTop = options.top;
  } as Element['scrollTo'];
}
