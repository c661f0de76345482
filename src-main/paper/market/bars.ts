// Bar building. Sub-minute bars stream an instrument's one-second bars; minute-multiple bars fold
// its minute aggregates; D uses (cached) day aggregates; W and M fold D. Every coarser bar is thus
// an exact aggregate of the finer ones, and nothing is produced after `nowSec`.
// With a calendar, bars exist only inside each day's session: sub-minute bars are kept when they
// start inside it (session bounds fall on every sub-minute step), minute-multiple bars are anchored
// at the session's open (09:15, 10:15, … as Indian feeds stamp them) and fold only session minutes,
// and D/W/M skip closed days (a D bar is still the whole day's aggregate, as the quote's).
import type { Bar, BarInterval } from './market.js';
import type { InstrumentSeries } from './instrument-series.js';
import type { BarCalendar } from './sessions.js';
import {
  alignIst,
  DAY_SEC,
  istDay,
  istDayStart,
  istNextMonthStartDay,
  istWeekStartDay,
  intradaySeconds,
} from './time.js';
import type { TickAgg } from './transform.js';
import { mergeInto, newAgg } from './underlying-series.js';

/** Refuse requests that would build absurd numbers of bars (the HTTP layer clamps spans anyway). */
export const MAX_BARS = 6_000_000;

class BarSink {
  readonly bars: Bar[] = [];
  private readonly ratio: number;
  private readonly splitTime: number;

  constructor(
    private readonly series: InstrumentSeries,
    private readonly adjusted: boolean,
  ) {
    this.ratio = series.split?.ratio ?? 1;
    this.splitTime = series.split?.time ?? -Infinity;
  }

  /** Split adjustment of a bar (D or finer; never straddles the ex-date's midnight). */
  adjust(time: number, a: TickAgg): TickAgg {
    if (time >= this.splitTime || this.ratio === 1) return a;
    const r = this.ratio;
    if (this.adjusted) return { o: a.o, h: a.h, l: a.l, c: a.c, v: a.v * r };
    return { o: a.o * r, h: a.h * r, l: a.l * r, c: a.c * r, v: a.v };
  }

  push(time: number, a: TickAgg): void {
    const t = this.series.tick;
    this.bars.push({
      time,
      open: t.toPrice(a.o),
      high: t.toPrice(a.h),
      low: t.toPrice(a.l),
      close: t.toPrice(a.c),
      volume: a.v,
    });
  }
}

function checkCount(n: number): void {
  if (n > MAX_BARS) throw new RangeError(`Too many bars requested (${n}; at most ${MAX_BARS})`);
}

export function buildBars(
  series: InstrumentSeries,
  interval: BarInterval,
  fromSec: number,
  toSec: number,
  nowSec: number,
  adjusted: boolean,
  calendar?: BarCalendar,
): Bar[] {
  if (!Number.isFinite(fromSec) || !Number.isFinite(toSec)) throw new RangeError('Bar window must be finite');
  const k = intradaySeconds(interval);
  if (k === null && interval !== 'D' && interval !== 'W' && interval !== 'M') {
    throw new RangeError(`Unsupported interval '${String(interval)}'`);
  }
  const sink = new BarSink(series, adjusted);
  const last = Math.min(Math.floor(toSec), nowSec);
  const from = Math.ceil(fromSec);
  if (last < from) return sink.bars;
  if (k !== null) {
    const first = alignIst(from - 1, k) + k;
    const lastStart = alignIst(last, k);
    if (lastStart < first) return sink.bars;
    checkCount((lastStart - first) / k + 1);
    const end = Math.min(lastStart + k - 1, nowSec);
    if (k < 60) {
      // One offset decision for the whole span, as a calendar-free request makes it.
      const off = series.overlay.constantOver(first, end);
      if (!calendar) subMinute(series, sink, k, first, end, nowSec, off);
      else
        for (const [a, b] of sessionSpans(calendar, k, first, end))
          subMinute(series, sink, k, a, b, nowSec, off);
      return sink.bars;
    }
    if (calendar) {
      // Anchored buckets may start before `first`: scan from a bucket earlier, keep [from, last].
      sessionMinutes(
        series,
        sink,
        k,
        Math.floor((from - k) / 60) * 60,
        Math.min(last + k - 1, nowSec),
        nowSec,
        calendar,
      );
      return sink.bars.filter((b) => b.time >= from && b.time <= last);
    }
    minuteMultiple(series, sink, k, first, end, nowSec);
    return sink.bars;
  }
  if (interval === 'D') {
    const d0 = istDay(from - 1) + 1;
    const d1 = istDay(last);
    checkCount(d1 - d0 + 1);
    for (let d = d0; d <= d1; d++) {
      if (calendar && !calendar.session(d)) continue;
      const t = istDayStart(d);
      sink.push(t, sink.adjust(t, series.day(d, nowSec)));
    }
    return sink.bars;
  }
  // W and M: fold the (split-adjusted) days of each period up to now.
  const today = istDay(nowSec);
  const next = interval === 'W' ? (d: number) => d + 7 : istNextMonthStartDay;
  let p = interval === 'W' ? istWeekStartDay(istDay(from - 1)) + 7 : istNextMonthStartDay(istDay(from - 1));
  checkCount((istDay(last) - p) / 7 + 1);
  const acc = newAgg();
  for (; istDayStart(p) <= last; p = next(p)) {
    const stop = Math.min(next(p) - 1, today);
    let fresh = true;
    for (let d = p; d <= stop; d++) {
      if (calendar && !calendar.session(d)) continue;
      const t = istDayStart(d);
      mergeInto(acc, sink.adjust(t, series.day(d, nowSec)), fresh);
      fresh = false;
    }
    // A period with no trading day (a closed week) has no bar.
    if (!fresh) sink.push(istDayStart(p), acc);
  }
  return sink.bars;
}

/**
 * The seconds whose k-second bars start inside a session, day by day within [first, end]: from the
 * first bar start at or after the open to the end of the last bar starting before the close (which
 * may run past a close off the bars' grid, as MCX's 23:55 is for 45 s bars). Only these seconds are
 * scanned: a month of sub-minute bars costs its sessions, not 30 whole days.
 */
function* sessionSpans(
  calendar: BarCalendar,
  k: number,
  first: number,
  end: number,
): Generator<[number, number]> {
  for (let d = istDay(first); d <= istDay(end); d++) {
    const sess = calendar.session(d);
    if (!sess) continue;
    const day = istDayStart(d);
    const a = Math.max(first, alignIst(day + sess.startSec - 1, k) + k);
    const b = Math.min(end, alignIst(day + Math.min(sess.endSec, DAY_SEC) - 1, k) + k - 1);
    if (a <= b) yield [a, b];
  }
}

/**
 * k-second bars over [first, end] (both on the bars' grid, or `end` cut at now). `off` is the span's
 * one setPrice offset: with it, underlying seconds fold per bucket and each bucket maps once (the
 * day's transform is monotone); without it (undefined), every second maps.
 */
function subMinute(
  s: InstrumentSeries,
  sink: BarSink,
  k: number,
  first: number,
  end: number,
  nowSec: number,
  off: number | undefined,
): void {
  const open = new Int32Array(60);
  const close = new Int32Array(60);
  const vol = new Float64Array(60);
  const perBucket = off !== undefined;
  const acc = newAgg();
  const out = newAgg();
  let cur = NaN;
  const flush = (): void => {
    if (Number.isNaN(cur)) return;
    sink.push(
      cur,
      sink.adjust(cur, perBucket ? s.transform(istDay(cur), off).applyAgg(acc, out, true) : acc),
    );
  };
  for (let m = Math.floor(first / 60); m * 60 <= end; m++) {
    const base = m * 60;
    const n = Math.min(60, nowSec - base + 1);
    if (perBucket) s.underlyingSeconds(m, open, close, vol);
    else s.seconds(m, n, open, close, vol);
    const s0 = Math.max(0, first - base);
    const s1 = Math.min(n - 1, end - base);
    for (let i = s0; i <= s1; i++) {
      const sec = base + i;
      const o = open[i] ?? 0;
      const c = close[i] ?? 0;
      const hi = o > c ? o : c;
      const lo = o > c ? c : o;
      if (!(sec < cur + k)) {
        flush();
        cur = k === 1 ? sec : alignIst(sec, k);
        acc.o = o;
        acc.h = hi;
        acc.l = lo;
        acc.v = 0;
      } else {
        if (hi > acc.h) acc.h = hi;
        if (lo < acc.l) acc.l = lo;
      }
      acc.c = c;
      acc.v += vol[i] ?? 0;
    }
  }
  flush();
}

function minuteMultiple(
  s: InstrumentSeries,
  sink: BarSink,
  k: number,
  first: number,
  end: number,
  nowSec: number,
): void {
  const one = newAgg();
  const acc = newAgg();
  let cur = NaN;
  for (let m = first / 60; m * 60 <= end; m++) {
    const sec = m * 60;
    s.minute(m, nowSec, one);
    const fresh = !(sec < cur + k);
    if (fresh) {
      if (!Number.isNaN(cur)) sink.push(cur, sink.adjust(cur, acc));
      cur = alignIst(sec, k);
    }
    mergeInto(acc, one, fresh);
  }
  if (!Number.isNaN(cur)) sink.push(cur, sink.adjust(cur, acc));
}

/** Minute-multiple bars anchored at each day's session open, folding only minutes inside it. */
function sessionMinutes(
  s: InstrumentSeries,
  sink: BarSink,
  k: number,
  start: number,
  end: number,
  nowSec: number,
  calendar: BarCalendar,
): void {
  const one = newAgg();
  const acc = newAgg();
  let cur = NaN;
  const flush = (): void => {
    if (!Number.isNaN(cur)) sink.push(cur, sink.adjust(cur, acc));
    cur = NaN;
  };
  let m = Math.ceil(start / 60);
  while (m * 60 <= end) {
    const sec = m * 60;
    const d = istDay(sec);
    const dayStart = istDayStart(d);
    const sess = calendar.session(d);
    const off = sec - dayStart;
    if (!sess || off >= sess.endSec) {
      flush();
      m = (dayStart + 86_400) / 60;
      continue;
    }
    if (off < sess.startSec) {
      m = (dayStart + sess.startSec) / 60;
      continue;
    }
    const anchor = dayStart + sess.startSec;
    const bucket = anchor + Math.floor((sec - anchor) / k) * k;
    s.minute(m, nowSec, one);
    const fresh = bucket !== cur;
    if (fresh) {
      flush();
      cur = bucket;
    }
    mergeInto(acc, one, fresh);
    m++;
  }
  flush();
}
