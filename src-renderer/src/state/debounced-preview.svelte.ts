// The preview the ticket's Split and Smart modes share: asked of the core after a short pause in
// typing, a later ask wins, and a preview is shown only for exactly the request it answers.
import type { IpcResult } from '@contract';

export class DebouncedPreview<Req extends { confirmDuplicate?: boolean }, P> {
  preview = $state.raw<P | undefined>();
  /** The request the preview answers (a preview of an order since changed is not shown as current). */
  previewKey = $state<string | undefined>();
  /** Why there is no preview (the input is incomplete, or the core could not answer). */
  previewProblem = $state<string | undefined>();
  previewing = $state(false);

  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #load: (input: Omit<Req, 'confirmDuplicate'>) => Promise<IpcResult<P>>;
  readonly #delayMs: number;
  /** Put before the core's message when it could not answer (Smart: "No preview: "). */
  readonly #problemPrefix: string;

  constructor(
    load: (input: Omit<Req, 'confirmDuplicate'>) => Promise<IpcResult<P>>,
    delayMs: number,
    problemPrefix = '',
  ) {
    this.#load = load;
    this.#delayMs = delayMs;
    this.#problemPrefix = problemPrefix;
  }

  /** The preview of exactly this request, once the core has answered for it. */
  of(request: Req | undefined): P | undefined {
    return request !== undefined && this.previewKey === JSON.stringify(request) ? this.preview : undefined;
  }

  /** Asks after the pause; with no request, says `inputProblem` (why there is none) instead. */
  schedule(request: Req | undefined, inputProblem: string | undefined): void {
    clearTimeout(this.#timer);
    const seq = ++this.#seq;
    if (!request) {
      this.preview = undefined;
      this.previewing = false;
      this.previewProblem = inputProblem;
      return;
    }
    this.previewing = true;
    this.#timer = setTimeout(() => void this.#ask(request, seq), this.#delayMs);
  }

  /** The preview now (before a send, and in tests). */
  async refresh(request: Req): Promise<P | undefined> {
    clearTimeout(this.#timer);
    return this.#ask(request, ++this.#seq);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#seq += 1;
  }

  async #ask(request: Req, seq: number): Promise<P | undefined> {
    this.previewing = true;
    const { confirmDuplicate: _c, ...input } = request;
    const r = await this.#load(input);
    // A later change asked again: this answer is for an order no longer on screen.
    if (seq !== this.#seq) return undefined;
    this.previewing = false;
    if (!r.ok) {
      this.preview = undefined;
      this.previewProblem = `${this.#problemPrefix}${r.error.message}`;
      return undefined;
    }
    this.preview = r.value;
    this.previewKey = JSON.stringify(request);
    this.previewProblem = undefined;
    return r.value;
  }
}
