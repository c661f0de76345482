// What the core says of its files, under the top bar: a journal salvaged at start (the core's words,
// saved of total and where the damaged file is kept) until the trader closes it; the paper account
// unavailable (the ledger named, why) in place of "gateway unreachable", with "reset the paper
// account" asked in the window first and the outcome read back from the core.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { SessionSnapshot, StorageStatus } from '@contract';
import StatusBar from '../../../src-renderer/src/components/StatusBar.svelte';
import { ConfirmState } from '../../../src-renderer/src/state/confirm.svelte';
import { CONFIRM } from '../../../src-renderer/src/state/context';
import { DeskState } from '../../../src-renderer/src/state/desk.svelte';
import { deskContext } from '../../support/component/desk-context';
import { FakeBridge } from '../../support/component/fake-bridge';
import { flush, snapshot } from '../../support/component/session';

const BACKUP = '/home/t/.config/OrderDesk/journal.db.corrupt-1764352871000';
const JOURNAL = {
  backupPath: BACKUP,
  saved: 23,
  total: 24,
  message: `The journal was damaged: 23 of 24 entries saved; the damaged file is kept at ${BACKUP}`,
};
const LEDGER = '/home/t/.config/OrderDesk/paper/paper.db';
const PAPER = {
  file: LEDGER,
  reason: 'the file is damaged',
  message: `The paper account is unavailable: its ledger ${LEDGER} could not be opened (the file is damaged). Reset the paper account to start it afresh (the damaged file is kept), or switch to a live profile.`,
};

async function setup(snap: SessionSnapshot) {
  let storage: StorageStatus = snap.storage ?? {};
  let seq = snap.seq;
  const b = new FakeBridge()
    .answer('session.snapshot', () => ({ ok: true, value: { ...snap, storage, seq } }))
    .answer('profiles.resetPaper', () => {
      storage = {};
      seq += 1;
      return { ok: true, value: { backupPath: `${LEDGER}.corrupt-1764352999000` } };
    });
  const desk = new DeskState(b);
  desk.start();
  const confirm = new ConfirmState();
  render(StatusBar, { props: { desk }, context: deskContext(b, [[CONFIRM, confirm]]) });
  await flush();
  return { b, desk, confirm };
}

describe('the storage banners', () => {
  it('a journal salvaged at start: the core words in a banner, closed by a keyboard-reachable button', async () => {
    const { b } = await setup(snapshot({ storage: { journal: JOURNAL } }));
    const banner = screen.getByTestId('banner-journal');
    expect(banner).toHaveAttribute('role', 'status');
    expect(screen.getByTestId('banner-journal-words')).toHaveTextContent(
      `The journal was damaged: 23 of 24 entries saved; the damaged file is kept at ${BACKUP}`,
    );
    const close = screen.getByRole('button', { name: 'Close the journal notice' });
    close.focus();
    expect(document.activeElement).toBe(close);
    await fireEvent.click(close);
    expect(screen.queryByTestId('banner-journal')).toBeNull();
    // The same notice again (a later event) stays closed; a new salvage shows again.
    b.emit('session.storage', { seq: 12, journal: JOURNAL });
    await flush();
    expect(screen.queryByTestId('banner-journal')).toBeNull();
    b.emit('session.storage', { seq: 13, journal: { ...JOURNAL, backupPath: `${BACKUP}9`, saved: 20 } });
    await flush();
    expect(screen.getByTestId('banner-journal')).toBeInTheDocument();
  });

  it('a salvage told by event after the snapshot shows too', async () => {
    const { b } = await setup(snapshot());
    expect(screen.queryByTestId('banner-journal')).toBeNull();
    b.emit('session.storage', { seq: 11, journal: JOURNAL });
    await flush();
    expect(screen.getByTestId('banner-journal-words')).toHaveTextContent('23 of 24 entries saved');
  });

  it('paper unavailable: the ledger and why instead of "gateway unreachable"; reset asked, then its outcome', async () => {
    const { b, confirm } = await setup(snapshot({ connection: 'disconnected', storage: { paper: PAPER } }));
    expect(screen.queryByTestId('banner-offline')).toBeNull();
    expect(screen.getByTestId('connection')).toHaveTextContent('paper unavailable');
    const banner = screen.getByTestId('banner-paper');
    expect(banner).toHaveAttribute('role', 'alert');
    expect(banner).toHaveTextContent('Paper account unavailable · the file is damaged');
    expect(banner).toHaveTextContent(`Its ledger ${LEDGER} could not be opened.`);

    // Asked first: said no, nothing is reset.
    await fireEvent.click(screen.getByRole('button', { name: 'Reset the paper account…' }));
    expect(confirm.request?.title).toBe('Reset the paper account?');
    expect(confirm.request?.lines.join(' ')).toMatch(/orders, positions and trades are discarded/);
    expect(confirm.request?.lines.join(' ')).toContain(
      `The damaged ledger is kept aside (moved from ${LEDGER})`,
    );
    confirm.answer(false);
    await flush();
    expect(b.callsTo('profiles.resetPaper')).toEqual([]);

    // Said yes: reset, read back, the outcome shown and focused; the unavailable banner gone.
    await fireEvent.click(screen.getByRole('button', { name: 'Reset the paper account…' }));
    confirm.answer(true);
    await flush();
    await flush();
    expect(b.callsTo('profiles.resetPaper')).toHaveLength(1);
    const outcome = screen.getByTestId('paper-reset-outcome');
    expect(outcome).toHaveTextContent(
      `The paper account was reset and starts afresh; the damaged ledger is kept at ${LEDGER}.corrupt-1764352999000`,
    );
    expect(document.activeElement).toBe(outcome);
    expect(screen.getByTestId('banner-paper')).not.toHaveTextContent('Paper account unavailable');
    expect(screen.queryByRole('button', { name: 'Reset the paper account…' })).toBeNull();
    await fireEvent.click(screen.getByTestId('banner-paper-close'));
    expect(screen.queryByTestId('banner-paper')).toBeNull();
  });

  it('a reset the core refuses says why, and the reset stays offered', async () => {
    const { b, confirm } = await setup(snapshot({ storage: { paper: PAPER } }));
    b.answer('profiles.resetPaper', () => ({
      ok: false,
      error: {
        kind: 'storage',
        message: `The damaged paper ledger ${LEDGER} could not be moved aside: EACCES`,
      },
    }));
    await fireEvent.click(screen.getByRole('button', { name: 'Reset the paper account…' }));
    confirm.answer(true);
    await flush();
    await flush();
    expect(screen.getByTestId('paper-reset-outcome')).toHaveTextContent(
      `The paper account was not reset: The damaged paper ledger ${LEDGER} could not be moved aside: EACCES`,
    );
    expect(screen.getByTestId('banner-paper')).toHaveTextContent('Paper account unavailable');
    expect(screen.getByRole('button', { name: 'Reset the paper account…' })).toBeInTheDocument();
  });

  it('on a live profile the paper ledger is not a banner (it shows in the profile details)', async () => {
    await setup(
      snapshot({
        profile: { ...snapshot().profile, id: 'zerodha', name: 'Zerodha', kind: 'gateway' },
        mode: 'live',
        storage: { paper: PAPER },
      }),
    );
    expect(screen.queryByTestId('banner-paper')).toBeNull();
  });
});
