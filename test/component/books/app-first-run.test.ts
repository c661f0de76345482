// The desk opens the guided first-run panel by itself in the ticket column for a live profile
// without a key, keeps it while the key is set and tested, and closes it once the gateway takes the
// key; the paper profile never shows it.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '@contract';
import App from '../../../src-renderer/src/App.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot } from '../../support/component/books-fixtures';
import { installLayout } from '../../support/component/jsdom-layout';

beforeAll(() => installLayout());
afterEach(() => document.body.replaceChildren());

const LIVE: Partial<SessionSnapshot> = {
  profile: {
    id: 'live1',
    name: 'My broker',
    kind: 'gateway',
    baseUrl: 'http://127.0.0.1:5000',
    strategy: 'OrderDesk',
    rateLimitPerSecond: 10,
    active: true,
    hasKey: false,
  },
  mode: 'live',
  connection: 'no_key',
  apiKey: { profileId: 'live1', present: false, backend: 'memory', persistent: false },
};

async function desk(over: Partial<SessionSnapshot>) {
  const b = new FakeBridge().answer('session.snapshot', () => ({ ok: true, value: snapshot(over) }));
  Object.assign(window, { bridge: b });
  render(App);
  for (let i = 0; i < 5; i++) await flush();
  return b;
}

const ticketColumn = () => screen.getByRole('region', { name: 'Order ticket' });

describe('the desk (App): first run', () => {
  it('shows the guided panel in the ticket column for a live profile with no key, until the key is set and taken', async () => {
    const b = await desk(LIVE);
    expect(within(ticketColumn()).getByTestId('first-run')).toBeInTheDocument();
    expect(
      within(ticketColumn()).getByRole('heading', { name: 'Set up the live gateway' }),
    ).toBeInTheDocument();

    // The key is stored: the panel stays for its test (the gateway has not taken it yet).
    b.emit('apiKey.status', {
      seq: 11,
      profileId: 'live1',
      present: true,
      backend: 'memory',
      persistent: false,
    });
    await flush();
    expect(screen.queryByTestId('first-run')).toBeInTheDocument();

    // The gateway takes it: the desk is ready, the panel goes.
    b.emit('session.connection', { seq: 12, profileId: 'live1', time: 1, state: 'connected' });
    await flush();
    expect(screen.queryByTestId('first-run')).not.toBeInTheDocument();
  });

  it('gives way to the Profiles dialog (the same form, one on screen at a time) and returns after it', async () => {
    await desk(LIVE);
    await fireEvent.click(screen.getByRole('button', { name: /open Profiles and API keys/ }));
    await flush();
    expect(screen.getAllByTestId('first-run')).toHaveLength(1);
    expect(within(ticketColumn()).queryByTestId('first-run')).not.toBeInTheDocument();
    await fireEvent.keyDown(window, { key: 'Escape' });
    await flush();
    expect(within(ticketColumn()).getByTestId('first-run')).toBeInTheDocument();
  });

  it('a key the gateway refuses brings it back', async () => {
    const b = await desk({ ...LIVE, connection: 'connected', apiKey: { ...LIVE.apiKey!, present: true } });
    expect(screen.queryByTestId('first-run')).not.toBeInTheDocument();
    b.emit('session.connection', { seq: 11, profileId: 'live1', time: 1, state: 'unauthorised' });
    await flush();
    expect(within(ticketColumn()).getByTestId('first-run')).toBeInTheDocument();
  });

  it('never shows for the paper profile, even without a key', async () => {
    await desk({
      connection: 'no_key',
      apiKey: { profileId: 'paper', present: false, backend: 'memory', persistent: false },
    });
    expect(screen.queryByTestId('first-run')).not.toBeInTheDocument();
    expect(ticketColumn()).toBeInTheDocument();
  });
});
