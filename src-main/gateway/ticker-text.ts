// The ticker's `format=txt` answer (AmiBroker style, gateway-behaviour §9.6), turned into the same bar
// records as the JSON answer, so callers never care which format was asked for:
//   daily     NSE:SBIN,2025-01-01,766.5,774.0,763.2,772.5,318625
//   intraday  NSE:SBIN,2025-01-01,09:15:00,766.5,774.0,763.2,772.5,318625
// Dates and times are IST; BarTimestamp turns them into epoch seconds.

export interface TextBar {
  timestamp: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** Parses every non-empty line; returns the 1-based number of the first bad line instead. */
export function parseTickerText(text: string): { bars: TextBar[] } | { badLine: number } {
  const bars: TextBar[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    const f = line.split(',').map((s) => s.trim());
    let bar: TextBar | undefined;
    if (f.length === 7 && /^\d{4}-\d{2}-\d{2}$/.test(f[1] ?? '')) {
      const [, date = '', open = '', high = '', low = '', close = '', volume = ''] = f;
      bar = { timestamp: date, open, high, low, close, volume };
    } else if (f.length === 8 && /^\d{2}:\d{2}(:\d{2})?$/.test(f[2] ?? '')) {
      const [, date = '', time = '', open = '', high = '', low = '', close = '', volume = ''] = f;
      bar = { timestamp: `${date} ${time}`, open, high, low, close, volume };
    }
    if (!bar) return { badLine: i + 1 };
    bars.push(bar);
  }
  return { bars };
}
