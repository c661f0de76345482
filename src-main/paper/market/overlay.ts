// setPrice's piecewise-constant tick offset over a series: each entry holds from its start second
// until the next one. Kept tiny (entries are only added by tests), so scans are linear.

export class Overlay {
  private readonly starts: number[] = [];
  private readonly offsets: number[] = [];

  get empty(): boolean {
    return this.starts.length === 0;
  }

  /** Offset in force at epoch second `sec`. */
  at(sec: number): number {
    for (let i = this.starts.length - 1; i >= 0; i--) {
      if ((this.starts[i] ?? 0) <= sec) return this.offsets[i] ?? 0;
    }
    return 0;
  }

  /** The offset if it is the same over every second of [a, b], else undefined. */
  constantOver(a: number, b: number): number | undefined {
    if (this.starts.length === 0) return 0;
    for (const s of this.starts) if (s > a && s <= b) return undefined;
    return this.at(a);
  }

  /** From `sec` on, the offset is `offset` (later entries are superseded). */
  set(sec: number, offset: number): void {
    while (this.starts.length > 0 && (this.starts[this.starts.length - 1] ?? 0) >= sec) {
      this.starts.pop();
      this.offsets.pop();
    }
    this.starts.push(sec);
    this.offsets.push(offset);
  }
}
