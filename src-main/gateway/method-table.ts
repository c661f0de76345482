// The gateway client's per-operation methods: one for each POST operation of the contract's OPERATIONS
// table, each the client's generic `call` under the operation's name. Written out, not generated, so
// the compiler checks that every operation has its method and every method its operation's types.
import type { OperationName, RequestOf, ResponseOf } from '../contract/index.js';
import type { GatewayResult } from './errors.js';

/** An operation's fields, without the key (the client adds it). */
export type Input<N extends OperationName> = Omit<RequestOf<N>, 'apikey'>;
/** Operations whose only field is the key take no argument. */
type Args<I> = Partial<I> extends I ? [input?: I] : [input: I];
/** The operations sent as a JSON POST (ticker and instruments are GETs with methods of their own). */
export type PostOperation = Exclude<OperationName, 'ticker' | 'instruments'>;

export type GatewayMethods = {
  [N in PostOperation]: (...args: Args<Input<N>>) => Promise<GatewayResult<ResponseOf<N>>>;
};

/** The generic call the methods are made of. */
export type PostCall = <N extends PostOperation>(
  name: N,
  input: Input<N> | undefined,
) => Promise<GatewayResult<ResponseOf<N>>>;

export function operationMethods(call: PostCall): GatewayMethods {
  return {
    orderbook: (input) => call('orderbook', input),
    tradebook: (input) => call('tradebook', input),
    holdings: (input) => call('holdings', input),
    positionbook: (input) => call('positionbook', input),
    funds: (input) => call('funds', input),
    orderstatus: (input) => call('orderstatus', input),
    openposition: (input) => call('openposition', input),
    positionsopen: (input) => call('positionsopen', input),
    placeorder: (input) => call('placeorder', input),
    splitorder: (input) => call('splitorder', input),
    basketorder: (input) => call('basketorder', input),
    placesmartorder: (input) => call('placesmartorder', input),
    modifyorder: (input) => call('modifyorder', input),
    cancelorder: (input) => call('cancelorder', input),
    cancelallorder: (input) => call('cancelallorder', input),
    closeposition: (input) => call('closeposition', input),
    closepositionHosted: (input) => call('closepositionHosted', input),
    depth: (input) => call('depth', input),
    expiry: (input) => call('expiry', input),
    search: (input) => call('search', input),
    ping: (input) => call('ping', input),
    quotes: (input) => call('quotes', input),
    multiquotes: (input) => call('multiquotes', input),
    history: (input) => call('history', input),
    intervals: (input) => call('intervals', input),
    symbol: (input) => call('symbol', input),
    analyzer: (input) => call('analyzer', input),
    margin: (input) => call('margin', input),
    pnlsymbols: (input) => call('pnlsymbols', input),
    optionsymbol: (input) => call('optionsymbol', input),
    optionchain: (input) => call('optionchain', input),
    optiongreeks: (input) => call('optiongreeks', input),
    multioptiongreeks: (input) => call('multioptiongreeks', input),
    syntheticfuture: (input) => call('syntheticfuture', input),
    optionsorder: (input) => call('optionsorder', input),
    optionsmultiorder: (input) => call('optionsmultiorder', input),
    marketholidays: (input) => call('marketholidays', input),
    markettimings: (input) => call('markettimings', input),
    analyzertoggle: (input) => call('analyzertoggle', input),
    placegttorder: (input) => call('placegttorder', input),
    modifygttorder: (input) => call('modifygttorder', input),
    cancelgttorder: (input) => call('cancelgttorder', input),
    gttorderbook: (input) => call('gttorderbook', input),
  };
}
