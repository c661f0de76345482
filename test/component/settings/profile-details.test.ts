// A profile's own settings in the Settings pane: the strategy tag and rate limit are checked here
// first (reasons beside the field), main's refusal is shown beside the field it names, a valid change
// goes to profiles.update, and removing a gateway profile asks in the window first.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ProfileView, ProfilesList } from '@contract';
import ProfileDetails from '../../../src-renderer/src/components/settings/ProfileDetails.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { CONFIRM, DESK } from '../../../src-renderer/src/state/context';
import { DeskState } from '../../../src-renderer/src/state/desk.svelte';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush } from '../../support/component/session';

const PAPER: ProfileView = {
  id: 'paper',
  name: 'Paper (simulated)',
  kind: 'paper',
  baseUrl: 'http://127.0.0.1:40001',
  strategy: 'OrderDesk',
  rateLimitPerSecond: 10,
  active: false,
  hasKey: true,
};
const LIVE: ProfileView = {
  ...PAPER,
  id: 'gw-1',
  name: 'Zerodha',
  kind: 'gateway',
  baseUrl: 'http://127.0.0.1:5000',
  active: true,
  hasKey: true,
};

/** The changes of the last profiles.update sent. */
const lastChanges = (bridge: FakeBridge) =>
  (bridge.callsTo('profiles.update').at(-1)?.input as { changes?: unknown } | undefined)?.changes;

function setup(refuse?: { message: string; fields?: { path: string; message: string }[] }) {
  const bridge = new FakeBridge();
  let profiles = [PAPER, LIVE];
  let active = 'gw-1';
  const list = (): ProfilesList => ({
    activeProfileId: active,
    profiles: profiles.map((p) => ({ ...p, active: p.id === active })),
  });
  bridge
    .answer('profiles.list', () => ({ ok: true, value: list() }))
    .answer('apiKey.status', (i) => ({
      ok: true,
      value: { profileId: i?.profileId ?? active, present: true, backend: 'keychain', persistent: true },
    }))
    .answer('profiles.update', (input) => {
      if (refuse) return { ok: false, error: { kind: 'invalid_input', ...refuse } };
      profiles = profiles.map((p) => (p.id === input!.id ? { ...p, ...input!.changes } : p));
      return { ok: true, value: list() };
    })
    .answer('profiles.remove', (input) => {
      profiles = profiles.filter((p) => p.id !== input!.id);
      active = 'paper';
      return { ok: true, value: list() };
    });
  const confirm = new ConfirmState();
  render(ProfileDetails, {
    props: { bridge },
    context: deskContext(bridge, [
      [CONFIRM, confirm],
      [DESK, new DeskState(bridge)],
    ]),
  });
  return { bridge, confirm };
}

describe('profile details', () => {
  it('checks the rate limit and the strategy tag beside their fields before sending', async () => {
    const { bridge } = setup();
    await flush();
    expect((screen.getByTestId('details-strategy') as HTMLInputElement).value).toBe('OrderDesk');
    await fireEvent.input(screen.getByTestId('details-rate'), { target: { value: '250' } });
    await fireEvent.input(screen.getByTestId('details-strategy'), { target: { value: '  ' } });
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(screen.getByTestId('details-rate-note').textContent).toBe(
      'Rate limit: 1 to 100 requests a second',
    );
    expect(screen.getByTestId('details-rate').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Strategy tag: enter the tag orders carry (e.g. OrderDesk)')).toBeTruthy();
    expect(bridge.callsTo('profiles.update')).toEqual([]);
  });

  it('sends a valid change to profiles.update, the base URL included for a gateway profile', async () => {
    const { bridge } = setup();
    await flush();
    await fireEvent.input(screen.getByTestId('details-rate'), { target: { value: '8' } });
    await fireEvent.input(screen.getByTestId('details-strategy'), { target: { value: 'Scalper' } });
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(bridge.callsTo('profiles.update').map((c) => c.input)).toEqual([
      {
        id: 'gw-1',
        changes: {
          name: 'Zerodha',
          strategy: 'Scalper',
          rateLimitPerSecond: 8,
          baseUrl: 'http://127.0.0.1:5000',
        },
      },
    ]);
    expect(screen.getByText('Zerodha saved')).toBeTruthy();
  });

  it('offers "send my key without TLS" only for plain http:// to another computer, and shows main\'s notice', async () => {
    const { bridge } = setup();
    await flush();
    expect(screen.queryByTestId('details-insecure-key')).toBeNull();
    const url = screen.getByLabelText('Base URL');
    await fireEvent.input(url, { target: { value: 'https://gw.example.com' } });
    expect(screen.queryByTestId('details-insecure-key')).toBeNull();
    await fireEvent.input(url, { target: { value: 'http://192.168.1.20:5000' } });
    await fireEvent.click(screen.getByTestId('details-insecure-key'));
    bridge.answer('profiles.update', () => ({
      ok: true,
      value: {
        activeProfileId: 'gw-1',
        profiles: [PAPER, LIVE],
        notice: 'Enter the key again for this address.',
      },
    }));
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(lastChanges(bridge)).toMatchObject({
      baseUrl: 'http://192.168.1.20:5000',
      allowInsecureKey: true,
    });
    expect(screen.getByText('Enter the key again for this address.')).toBeTruthy();
  });

  it('marks a gateway profile sandbox by hand, and unmarks it; the paper profile has no such mark', async () => {
    const { bridge } = setup();
    await flush();
    const mark = screen.getByRole('checkbox', { name: /sandbox/i });
    expect(mark).not.toBeChecked();
    await fireEvent.click(mark);
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(lastChanges(bridge)).toMatchObject({ sandbox: true });
    expect(screen.getByTestId('details-sandbox')).toBeChecked();
    await fireEvent.click(screen.getByTestId('details-sandbox'));
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(lastChanges(bridge)).toMatchObject({ sandbox: false });
    await fireEvent.change(screen.getByTestId('details-profile'), { target: { value: 'paper' } });
    await flush();
    expect(screen.queryByTestId('details-sandbox')).toBeNull();
  });

  it("sets the feed URL, checked beside its field (ws:// or wss://, the gateway's own computer), and clears it", async () => {
    const { bridge } = setup();
    await flush();
    const feed = screen.getByLabelText('Feed URL');
    expect((feed as HTMLInputElement).value).toBe('');
    await fireEvent.input(feed, { target: { value: 'http://127.0.0.1:8765' } });
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(screen.getByText('The feed URL must start with ws:// or wss://')).toBeTruthy();
    await fireEvent.input(feed, { target: { value: 'ws://10.0.0.9:8765' } });
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(screen.getByText(/another computer than the gateway/)).toBeTruthy();
    expect(bridge.callsTo('profiles.update')).toEqual([]);

    await fireEvent.input(feed, { target: { value: 'ws://127.0.0.1:8765' } });
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(lastChanges(bridge)).toMatchObject({
      feedUrl: 'ws://127.0.0.1:8765',
    });
    // Emptied: the feed is derived from the base URL again ('' clears it in main).
    await fireEvent.input(feed, { target: { value: '' } });
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(lastChanges(bridge)).toMatchObject({ feedUrl: '' });
    expect(screen.getByTestId('details-feed-note')).toHaveTextContent('empty: ws://127.0.0.1:8765');
  });

  it("shows main's refusal beside the field it names", async () => {
    setup({
      message: 'profiles.update: changes.name: name must be at most 64 characters',
      fields: [{ path: 'changes.name', message: 'name must be at most 64 characters' }],
    });
    await flush();
    await fireEvent.click(screen.getByTestId('details-save'));
    await flush();
    expect(screen.getByText('name must be at most 64 characters')).toBeTruthy();
    expect(screen.queryByText('Zerodha saved')).toBeNull();
  });

  it('asks before removing a gateway profile; no removes nothing, yes removes it', async () => {
    const { bridge, confirm } = setup();
    await flush();
    await fireEvent.click(screen.getByTestId('details-remove'));
    expect(confirm.request?.title).toBe('Remove the profile Zerodha?');
    confirm.answer(false);
    await flush();
    expect(bridge.callsTo('profiles.remove')).toEqual([]);
    await fireEvent.click(screen.getByTestId('details-remove'));
    confirm.answer(true);
    await flush();
    await flush();
    expect(bridge.callsTo('profiles.remove').map((c) => c.input)).toEqual([{ id: 'gw-1' }]);
    // Paper is what is left, and paper cannot be removed.
    expect(screen.queryByTestId('details-remove')).toBeNull();
  });
});
