// The shared state the ticket, depth and watchlist panes read from context, over one FakeBridge with
// the answers they ask for at mount (settings, instruments), so a test renders a pane as App would.
import { DEFAULT_SETTINGS, type MarketWatchResult, type Settings, type SymbolInfo } from '@contract';
import { CONFIRMATIONS, ConfirmationsState } from '../../../src-renderer/src/state/confirmations.svelte';
import { DESK, MARKET, TICKET } from '../../../src-renderer/src/state/context';
import { DeskState } from '../../../src-renderer/src/state/desk.svelte';
import { MarketState } from '../../../src-renderer/src/state/market.svelte';
import { TicketState } from '../../../src-renderer/src/state/ticket.svelte';
import { FakeBridge } from './fake-bridge';

export interface DeskFixture {
  bridge: FakeBridge;
  desk: DeskState;
  ticket: TicketState;
  market: MarketState;
  confirmations: ConfirmationsState;
  context: Map<symbol, unknown>;
  settings: Settings;
}

export interface FixtureOptions {
  instruments?: SymbolInfo[];
  /** settings.confirmations.place (default off, so Enter sends at once). */
  confirmPlace?: boolean;
}

export function deskFixture(options: FixtureOptions = {}): DeskFixture {
  const settings: Settings = structuredClone({
    ...DEFAULT_SETTINGS,
    confirmations: { place: options.confirmPlace ?? false, modify: true, cancel: true },
  });
  const bridge = new FakeBridge();
  const known = new Map((options.instruments ?? []).map((i) => [`${i.exchange}:${i.symbol}`, i]));
  bridge
    .answer('settings.get', () => ({ ok: true, value: structuredClone(settings) }))
    .answer('settings.update', (patch) => {
      Object.assign(settings, patch);
      return { ok: true, value: structuredClone(settings) };
    })
    .answer('market.symbol', (input) => {
      const hit = input && known.get(`${input.exchange}:${input.symbol}`);
      return hit
        ? { ok: true, value: hit }
        : {
            ok: false,
            error: {
              kind: 'not_found',
              message: `Symbol ${input?.symbol} not found in exchange ${input?.exchange}`,
            },
          };
    })
    .answer('market.watch', (input) => ({
      ok: true,
      value: {
        id: `w${bridge.callsTo('market.watch').length}`,
        mode: input?.mode ?? 'quote',
        focus: input?.focus ?? false,
        // The fake takes every instrument it is asked for (the core validates them).
        symbols: (input?.symbols ?? []) as MarketWatchResult['symbols'],
        rejected: [],
      },
    }))
    .answer('market.unwatch', (input) => ({ ok: true, value: { id: input?.id ?? '', stopped: [] } }));
  const desk = new DeskState(bridge);
  const ticket = new TicketState(bridge);
  const market = new MarketState(bridge);
  const confirmations = new ConfirmationsState(bridge);
  confirmations.values = { ...settings.confirmations };
  const context = new Map<symbol, unknown>([
    [DESK, desk],
    [TICKET, ticket],
    [MARKET, market],
    [CONFIRMATIONS, confirmations],
  ]);
  return { bridge, desk, ticket, market, confirmations, context, settings };
}

/** Lets pending promise callbacks (bridge answers, effects) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}
