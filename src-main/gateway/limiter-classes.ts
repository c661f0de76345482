// Which of the gateway's rate-limit windows each operation counts against (gateway-behaviour §1.6:
// ORDER_RATE_LIMIT, SMART_ORDER_RATE_LIMIT, API_RATE_LIMIT for everything else). Split, basket,
// cancel-all and close-position are mutations but the gateway counts them as 'api'. optiongreeks
// (its own 30 a minute there) and margin (50 a second) are counted as 'api' here: never fewer.
import { OPERATIONS, type OperationName } from '../contract/index.js';

/** A limiter class of the gateway: its requests share one moving window. */
export type LimiterClass = 'order' | 'smart' | 'api';

export const LIMITER_CLASS_OF_OPERATION: Readonly<Record<OperationName, LimiterClass>> = {
  placeorder: 'order',
  modifyorder: 'order',
  cancelorder: 'order',
  optionsorder: 'order',
  optionsmultiorder: 'order',
  placegttorder: 'order',
  modifygttorder: 'order',
  cancelgttorder: 'order',
  placesmartorder: 'smart',
  splitorder: 'api',
  basketorder: 'api',
  cancelallorder: 'api',
  closeposition: 'api',
  closepositionHosted: 'api',
  orderbook: 'api',
  tradebook: 'api',
  holdings: 'api',
  positionbook: 'api',
  funds: 'api',
  orderstatus: 'api',
  openposition: 'api',
  positionsopen: 'api',
  depth: 'api',
  expiry: 'api',
  search: 'api',
  ticker: 'api',
  ping: 'api',
  quotes: 'api',
  multiquotes: 'api',
  history: 'api',
  intervals: 'api',
  symbol: 'api',
  analyzer: 'api',
  margin: 'api',
  pnlsymbols: 'api',
  optionsymbol: 'api',
  optionchain: 'api',
  optiongreeks: 'api',
  multioptiongreeks: 'api',
  syntheticfuture: 'api',
  instruments: 'api',
  marketholidays: 'api',
  markettimings: 'api',
  analyzertoggle: 'api',
  gttorderbook: 'api',
};

const CLASS_OF_PATH = new Map<string, LimiterClass>(
  Object.entries(OPERATIONS).map(([name, op]) => [
    op.path,
    LIMITER_CLASS_OF_OPERATION[name as OperationName],
  ]),
);

/** The class of a request to `pathname`; a path no operation has (a ticker's `/ticker/NSE:SBIN`) is 'api', as at the gateway. */
export function limiterClassOfPath(pathname: string): LimiterClass {
  return CLASS_OF_PATH.get(pathname) ?? 'api';
}
