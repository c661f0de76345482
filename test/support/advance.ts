// Driving code that waits on a manual clock (rate budgets, retry_after, rate windows) without real
// waits: move the clock on a step at a time, letting real I/O run in between, until the work settles.

export async function advanceUntilSettled<T>(
  clock: { advance(ms: number): unknown },
  work: Promise<T>,
  stepMs = 100,
  maxSteps = 600,
): Promise<T> {
  let settled = false;
  const watched = work.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let step = 0; !settled; step++) {
    if (step >= maxSteps) throw new Error(`still pending after ${maxSteps} steps of ${stepMs} ms`);
    // A few real milliseconds for sockets and promise chains, then the next step of clock time.
    await Promise.race([watched, new Promise((r) => setTimeout(r, 2))]);
    if (!settled) await clock.advance(stepMs);
  }
  return work;
}
