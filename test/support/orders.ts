// Orders the tests and stress suites place where what is ordered does not matter.

/** A market BUY of SBIN on NSE (MIS); a distinct quantity tells each apart, so the duplicate guard never holds it. */
export const sbinMarketBuy = (quantity: number) => ({
  exchange: 'NSE',
  symbol: 'SBIN',
  action: 'BUY',
  quantity,
  pricetype: 'MARKET',
  product: 'MIS',
});
