// The paper profile in Settings ▸ Profiles while its ledger cannot be opened: marked unavailable in
// the picker, the file and the reason beside it, and "reset the paper account" asked in the window
// first, then the outcome read back from the core; a live profile's details do not show it.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ProfileView, ProfilesList, StorageStatus } from '@contract';
import ProfileDetails from '../../../src-renderer/src/components/settings/ProfileDetails.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { CONFIRM, DESK } from '../../../src-renderer/src/state/context';
import { DeskState } from '../../../src-renderer/src/state/desk.svelte';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot } from '../../support/component/session';

/** The paper profile as the shared session snapshot has it (active, keyed). */
const PAPER: ProfileView = snapshot().profile;
const LIVE: ProfileView = {
  ...PAPER,
  id: 'gw-1',
  name: 'Zerodha',
  kind: 'gateway',
  baseUrl: 'http://127.0.0.1:5000',
  active: false,
};
const LEDGER = '/home/t/.config/OrderDesk/paper/paper.db';
const DOWN = {
  file: LEDGER,
  reason: 'the file is damaged',
  message: `The paper account is unavailable: its ledger ${LEDGER} could not be opened (the file is damaged).`,
};

async function setup(active = 'paper') {
  let storage: StorageStatus = { paper: DOWN };
  let seq = 10;
  const list = (): ProfilesList => ({
    activeProfileId: active,
    profiles: [PAPER, LIVE].map((p) => ({ ...p, active: p.id === active })),
  });
  const bridge = new FakeBridge()
    .answer('profiles.list', () => ({ ok: true, value: list() }))
    .answer('apiKey.status', (i) => ({
      ok: true,
      value: { profileId: i?.profileId ?? active, present: true, backend: 'keychain', persistent: true },
    }))
    .answer('session.snapshot', () => ({ ok: true, value: snapshot({ storage, seq }) }))
    .answer('profiles.resetPaper', () => {
      storage = {};
      seq += 1;
      return { ok: true, value: { backupPath: `${LEDGER}.corrupt-1764352999000` } };
    });
  const desk = new DeskState(bridge);
  desk.start();
  const confirm = new ConfirmState();
  render(ProfileDetails, {
    props: { bridge },
    context: new Map<symbol, unknown>([
      [CONFIRM, confirm],
      [DESK, desk],
    ]),
  });
  await flush();
  await flush();
  return { bridge, confirm };
}

describe('the paper profile unavailable, in its details', () => {
  it('names the ledger and why, asks before the reset, then shows the outcome read back from the core', async () => {
    const { bridge, confirm } = await setup();
    const picker = screen.getByTestId('details-profile') as HTMLSelectElement;
    expect(picker.selectedOptions[0]?.textContent).toBe('Paper (simulated) (in use) (unavailable)');
    const state = screen.getByTestId('details-paper-state');
    expect(state).toHaveTextContent(
      `Unavailable: its ledger ${LEDGER} could not be opened (the file is damaged).`,
    );

    const reset = screen.getByRole('button', { name: 'Reset the paper account…' });
    reset.focus();
    expect(document.activeElement).toBe(reset);
    await fireEvent.click(reset);
    expect(confirm.request).toMatchObject({ title: 'Reset the paper account?', tone: 'danger' });
    confirm.answer(false);
    await flush();
    expect(bridge.callsTo('profiles.resetPaper')).toEqual([]);

    await fireEvent.click(screen.getByRole('button', { name: 'Reset the paper account…' }));
    confirm.answer(true);
    await flush();
    await flush();
    expect(bridge.callsTo('profiles.resetPaper')).toHaveLength(1);
    const outcome = screen.getByTestId('details-paper-reset-outcome');
    expect(outcome).toHaveTextContent(
      `The paper account was reset and starts afresh; the damaged ledger is kept at ${LEDGER}.corrupt-1764352999000`,
    );
    expect(document.activeElement).toBe(outcome);
    expect(screen.queryByText(/Unavailable: its ledger/)).toBeNull();
    expect(picker.selectedOptions[0]?.textContent).toBe('Paper (simulated) (in use)');
  });

  it('a reset that leaves the paper account unavailable says so (as the core reads it back)', async () => {
    const { bridge, confirm } = await setup();
    bridge.answer('profiles.resetPaper', () => ({
      ok: true,
      value: { backupPath: `${LEDGER}.corrupt-1764352999000` },
    }));
    await fireEvent.click(screen.getByRole('button', { name: 'Reset the paper account…' }));
    confirm.answer(true);
    await flush();
    await flush();
    expect(screen.getByTestId('details-paper-reset-outcome')).toHaveTextContent(
      `The paper account is still unavailable: ${DOWN.message}`,
    );
    expect(screen.getByRole('button', { name: 'Reset the paper account…' })).toBeInTheDocument();
  });

  it("a live profile's details do not show the paper ledger", async () => {
    await setup('gw-1');
    expect(screen.queryByTestId('details-paper-state')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset the paper account…' })).toBeNull();
  });
});
