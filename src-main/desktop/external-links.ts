// The few web pages the desk may open in the system browser, by exact address: a link the renderer
// opens (target=_blank) is denied a window and, only when it is on this list, handed to the OS. Today
// the chart's attribution, which lightweight-charts' licence asks to be a link to TradingView.
export const EXTERNAL_LINKS: ReadonlySet<string> = new Set(['https://www.tradingview.com/']);

export function isExternalLink(url: unknown): url is string {
  return typeof url === 'string' && EXTERNAL_LINKS.has(url);
}
