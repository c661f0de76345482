// The chart canvas's colours: the desk's colour tokens read from CSS (the canvas takes no CSS
// itself), so the dark and light themes apply to it as to the rest of the desk.

/** A token's value on `el` (styles/theme-dark.css defines every one the chart reads). */
function token(el: HTMLElement, name: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim();
}

/** The chart's background, text, grid and scale borders. */
export function themeOptions(el: HTMLElement) {
  const border = token(el, '--border');
  return {
    layout: {
      background: { color: token(el, '--panel') },
      textColor: token(el, '--muted'),
    },
    grid: { vertLines: { color: border }, horzLines: { color: border } },
    rightPriceScale: { borderColor: border },
    timeScale: { borderColor: border },
  };
}

/** Rising candles in the profit colour, falling ones in the loss colour. */
export function candleColours(el: HTMLElement) {
  const up = token(el, '--profit');
  const down = token(el, '--loss');
  return { upColor: up, downColor: down, wickUpColor: up, wickDownColor: down };
}
