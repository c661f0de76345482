// Addresses the desk links to. The desktop host opens only the ones on its list
// (src-main/desktop/external-links.ts) in the system browser; a browser-mode desk opens a tab.
/** lightweight-charts' licence asks for an attribution linking to TradingView. */
export const TRADINGVIEW_URL = 'https://www.tradingview.com/';
