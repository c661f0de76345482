// The shared state the ticket, depth and watchlist panes read from context, over one FakeBridge with
// the answers they ask for at mount (settings, instruments), so a test renders a pane as App would.
import { DEFAULT_SETTINGS, type MarketWatchResult, type Settings, type SymbolInfo } from '@contract';
import { ConfirmationsState } from '../../../src-renderer/src/state/confirmations.svelte';
import { CONFIRMATIONS, DESK, MARKET, TICKET, TICKET_MODES } from '../../../src-renderer/src/state/context';
import { DeskState } from '../../../src-renderer/src/state/desk.svelte';
import { MarketState } from '../../../src-renderer/src/state/market.svelte';
import { TicketState } from '../../../src-renderer/src/state/ticket.svelte';
import { TicketModes } from '../../../src-renderer/src/state/ticket-modes.svelte';
import { deskContext } from './desk-context';
import { FakeBridge } from './fake-bridge';

export interface DeskFixture {
  bridge: FakeBridge;
  desk: DeskState;
  ticket: TicketState;
  /** The ticket's modes, remembering the mode in memory (not the page's sessionStorage). */
  modes: TicketModes;
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
  const modeStore = new Map<string, string>();
  const modes = new TicketModes(bridge, {
    getItem: (k) => modeStore.get(k) ?? null,
    setItem: (k, v) => void modeStore.set(k, v),
  });
  const confirmations = new ConfirmationsState(bridge);
  confirmations.values = { ...settings.confirmations };
  const context = deskContext(bridge, [
    [DESK, desk],
    [TICKET, ticket],
    [TICKET_MODES, modes],
    [MARKET, market],
    [CONFIRMATIONS, confirmations],
  ]);
  return { bridge, desk, ticket, modes, market, confirmations, context, settings };
}

/** Lets pending promise callbacks (bridge answers, effects) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}
