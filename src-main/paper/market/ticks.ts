// Prices live as integer tick counts; this converts them to rupees without float artefacts
// (15392 ticks of 0.05 is 769.6, not 769.6000000000001).

export class TickFormat {
  readonly tick: number;
  readonly decimals: number;
  private readonly scale: number;
  /** The tick expressed in units of 10^-decimals: an exact integer. */
  private readonly tickUnits: number;

  constructor(tick: number) {
    if (!(tick > 0) || !Number.isFinite(tick)) throw new RangeError(`Invalid tick size ${tick}`);
    let d = 0;
    while (d < 8 && Math.abs(Math.round(tick * 10 ** d) - tick * 10 ** d) > 1e-9) d++;
    this.tick = tick;
    this.decimals = d;
    this.scale = 10 ** d;
    this.tickUnits = Math.round(tick * this.scale);
  }

  /** Integer ticks to rupees: one integer product and one division, so correctly rounded. */
  toPrice(ticks: number): number {
    return (ticks * this.tickUnits) / this.scale;
  }

  /** Rupees to the nearest whole tick. */
  toTicks(price: number): number {
    return Math.round(Math.round(price * this.scale) / this.tickUnits);
  }
}
