import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { SessionSnapshot } from '@contract';
import StatusBar from '../../../src-renderer/src/components/StatusBar.svelte';
import { DeskState } from '../../../src-renderer/src/state/desk.svelte';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot } from '../../support/component/session';

const T0 = Date.UTC(2025, 10, 20, 9, 1, 2); // 14:31:02 IST

const LIVE = {
  profile: {
    id: 'zerodha',
    name: 'Zerodha',
    kind: 'gateway' as const,
    baseUrl: 'http://127.0.0.1:5000',
    strategy: 'OrderDesk',
    rateLimitPerSecond: 10,
    active: true,
    hasKey: true,
  },
  mode: 'live' as const,
  apiKey: { profileId: 'zerodha', present: true, backend: 'keychain' as const, persistent: true },
};

async function setup(snap: SessionSnapshot) {
  const b = new FakeBridge().answer('session.snapshot', () => ({ ok: true, value: snap }));
  const desk = new DeskState(b);
  desk.start();
  render(StatusBar, { props: { desk }, context: deskContext(b) });
  await flush();
  return { b, desk };
}

describe('the status bar', () => {
  it('paper: the PAPER badge and an amber band, no red frame, the profile and connection; no key or idle tray', async () => {
    await setup(snapshot());
    expect(screen.getByTestId('status-bar')).toHaveAttribute('data-mode', 'PAPER');
    expect(screen.getByTestId('mode')).toHaveTextContent(/^PAPER$/);
    expect(screen.getByRole('img', { name: 'PAPER: simulated orders' })).toBeInTheDocument();
    expect(screen.getByTestId('profile')).toHaveTextContent('OrderDesk · Paper (simulated)');
    expect(screen.getByTestId('connection')).toHaveTextContent('connected');
    expect(screen.getByText('simulated money')).toBeInTheDocument();
    // Paper uses no API key: where one is kept is noise there.
    expect(screen.queryByTestId('key')).toBeNull();
    expect(screen.queryByText('real money')).toBeNull();
  });

  it('live: the LIVE badge names real orders, and says real money in words', async () => {
    await setup(snapshot(LIVE));
    expect(screen.getByTestId('status-bar')).toHaveAttribute('data-mode', 'LIVE');
    expect(screen.getByRole('img', { name: 'LIVE: real orders' })).toHaveTextContent('LIVE');
    expect(screen.getByText('real money')).toBeInTheDocument();
    expect(screen.getByTestId('key')).toHaveTextContent('key in keychain');
  });

  it('sandbox: a calm SANDBOX badge (simulated orders), no real money, no red frame, the reason on hover', async () => {
    await setup(
      snapshot({
        ...LIVE,
        mode: 'sandbox',
        modeWhy: 'the gateway reports analyze mode (its sandbox): simulated orders',
      }),
    );
    expect(screen.getByTestId('status-bar')).toHaveAttribute('data-mode', 'SANDBOX');
    const badge = screen.getByRole('img', { name: 'SANDBOX: simulated orders at the gateway' });
    expect(badge).toHaveTextContent(/^SANDBOX$/);
    expect(badge).toHaveAttribute(
      'title',
      'the gateway reports analyze mode (its sandbox): simulated orders',
    );
    expect(screen.queryByText('real money')).toBeNull();
    expect(screen.queryByText('LIVE')).toBeNull();
  });

  it('session.gateway turns LIVE into SANDBOX and back, and says streaming or polling', async () => {
    const { b } = await setup(
      snapshot({ ...LIVE, feed: { state: 'polling', reason: 'the feed is connecting' } }),
    );
    expect(screen.getByTestId('status-bar')).toHaveAttribute('data-mode', 'LIVE');
    expect(screen.getByTestId('feed')).toHaveTextContent(/^polling$/);
    expect(screen.getByTestId('feed')).toHaveAttribute('title', 'the feed is connecting');
    b.emit('session.gateway', {
      seq: 11,
      profileId: 'zerodha',
      mode: 'sandbox',
      modeWhy: 'the gateway answers in analyze mode (its sandbox): simulated orders',
      feed: { state: 'streaming', url: 'wss://gw.example.com/ws' },
    });
    await flush();
    expect(screen.getByTestId('status-bar')).toHaveAttribute('data-mode', 'SANDBOX');
    expect(screen.getByTestId('mode')).toHaveTextContent(/^SANDBOX$/);
    expect(screen.getByTestId('feed')).toHaveTextContent(/^streaming$/);
    expect(screen.getByTestId('feed')).toHaveAttribute('data-state', 'streaming');
    // Another profile's word (a switch under way) is not this one's.
    b.emit('session.gateway', {
      seq: 12,
      profileId: 'other',
      mode: 'live',
      modeWhy: 'a gateway profile: real money',
      feed: { state: 'polling', reason: 'x' },
    });
    await flush();
    expect(screen.getByTestId('status-bar')).toHaveAttribute('data-mode', 'SANDBOX');
    b.emit('session.gateway', {
      seq: 13,
      profileId: 'zerodha',
      mode: 'live',
      modeWhy: 'the gateway reports live mode: real money',
      feed: { state: 'polling', reason: 'the feed is down (1006); polling until it is back' },
    });
    await flush();
    expect(screen.getByTestId('status-bar')).toHaveAttribute('data-mode', 'LIVE');
    expect(screen.getByText('real money')).toBeInTheDocument();
    expect(screen.getByTestId('feed')).toHaveTextContent(/^polling$/);
  });

  it('shows the last refresh in IST from gateway data (not from any event)', async () => {
    const { b } = await setup(snapshot());
    expect(screen.getByTestId('refreshed')).toHaveTextContent('not refreshed yet');
    b.emit('alerts.state', { seq: 11, paused: false, muted: [], sticky: [] });
    await flush();
    expect(screen.getByTestId('refreshed')).toHaveTextContent('not refreshed yet');
    b.emit('market.ltp', {
      seq: 13,
      profileId: 'paper',
      time: T0 + 500,
      symbol: 'SBIN',
      exchange: 'NSE',
      ltp: 905.3,
    });
    await flush();
    expect(screen.getByTestId('refreshed')).toHaveTextContent(/^refreshed 14:31:02 IST$/);
    b.emit('session.connection', { seq: 14, profileId: 'paper', time: T0 + 3000, state: 'connected' });
    await flush();
    expect(screen.getByTestId('refreshed')).toHaveTextContent(/^refreshed 14:31:05 IST$/);
  });

  it('gateway unreachable: the amber banner with since when, retrying; it leaves when connected again', async () => {
    const { b } = await setup(snapshot());
    b.emit('session.connection', {
      seq: 11,
      profileId: 'paper',
      time: T0,
      state: 'disconnected',
      message: 'connect ECONNREFUSED 127.0.0.1:5000',
    });
    await flush();
    const banner = screen.getByTestId('banner-offline');
    expect(banner).toHaveAttribute('role', 'alert');
    expect(banner).toHaveTextContent('Gateway unreachable since 14:31:02 IST · retrying');
    // The socket's own words are the tooltip's, not the desk's.
    expect(banner).not.toHaveTextContent('ECONNREFUSED');
    expect(banner.querySelector('[title="connect ECONNREFUSED 127.0.0.1:5000"]')).not.toBeNull();
    // A later failure does not move the time: it is since the first one.
    b.emit('session.connection', { seq: 12, profileId: 'paper', time: T0 + 60_000, state: 'connected' });
    await flush();
    expect(screen.queryByTestId('banner-offline')).toBeNull();
    expect(screen.getByTestId('connection')).toHaveAttribute('data-state', 'connected');
  });

  it('a desk loaded while the gateway is already unreachable shows the banner with the time it learned it', async () => {
    await setup(snapshot({ connection: 'disconnected' }));
    expect(screen.getByTestId('banner-offline')).toHaveTextContent(
      /^Gateway unreachable since \d\d:\d\d:\d\d IST · retrying/,
    );
  });

  it('key rejected: the red banner with the fix, and a button that opens Profiles and API keys', async () => {
    const { b } = await setup(snapshot(LIVE));
    b.answer('profiles.list', () => ({
      ok: true,
      value: { activeProfileId: 'zerodha', profiles: [LIVE.profile] },
    })).answer('apiKey.status', () => ({ ok: true, value: LIVE.apiKey }));
    b.emit('session.connection', { seq: 11, profileId: 'zerodha', time: T0, state: 'unauthorised' });
    await flush();
    expect(screen.getByTestId('banner-key')).toHaveTextContent(
      'API key rejected by the gateway · Settings ▸ Profiles',
    );
    // Said once, by the connection; the key's own pill keeps where it is stored, marked as the problem.
    expect(screen.getByTestId('connection')).toHaveTextContent('key rejected');
    expect(screen.getByTestId('key')).toHaveTextContent('key in keychain');
    expect(screen.getByTestId('key')).toHaveAttribute('data-state', 'problem');
    await fireEvent.click(screen.getByRole('button', { name: 'Open Profiles' }));
    await flush();
    const dialog = screen.getByRole('dialog', { name: 'Profiles and API keys' });
    expect(dialog).toHaveFocus();
    expect(screen.getByTestId('key-input')).toHaveAttribute('type', 'password');
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('no key for a live profile: the red banner says so', async () => {
    await setup(snapshot({ ...LIVE, connection: 'no_key', apiKey: { ...LIVE.apiKey, present: false } }));
    expect(screen.getByTestId('banner-key')).toHaveTextContent(
      'No API key for this profile · Settings ▸ Profiles',
    );
    // Said once, by the connection.
    expect(screen.getByTestId('connection')).toHaveTextContent('no API key');
    expect(screen.queryByTestId('key')).toBeNull();
  });
});
