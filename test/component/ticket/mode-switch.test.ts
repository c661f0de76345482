// The ticket's mode switch: a radio group reachable by keyboard, and the mode remembered for the session.
import { fireEvent, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MODE_STORAGE_KEY, TicketModes } from '../../../src-renderer/src/state/ticket-modes.svelte';
import { deskFixture } from '../../support/component/desk-fixture';
import { memoryStorage, mount } from './modes-fixture';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('the mode switch', () => {
  it('is a radio group reachable by keyboard, and the mode is remembered for the session', async () => {
    const { modes, storage } = await mount();
    const group = screen.getByRole('group', { name: 'Ticket mode' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => (r as HTMLInputElement).value)).toEqual([
      'regular',
      'smart',
      'split',
      'basket',
      'gtt',
    ]);
    await fireEvent.click(within(group).getByRole('radio', { name: 'Split' }));
    expect(modes.mode).toBe('split');
    expect(storage.data.get(MODE_STORAGE_KEY)).toBe('split');
    expect(screen.getByLabelText('Split size')).toBeInTheDocument();
    // A page reloaded in the same session starts where it was.
    expect(new TicketModes(deskFixture().bridge, storage).mode).toBe('split');
    expect(new TicketModes(deskFixture().bridge, memoryStorage({ [MODE_STORAGE_KEY]: 'bogus' })).mode).toBe(
      'regular',
    );
  });
});
