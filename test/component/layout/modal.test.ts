// The desk's modal dialog shell: Esc calls onescape, Tab and Shift+Tab wrap inside the box over
// the controls its `stops` selects, no key reaches the desk underneath, and focus goes back where
// it was once the dialog closes.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { createRawSnippet } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Modal from '../../../src-renderer/src/components/Modal.svelte';

afterEach(() => document.body.replaceChildren());

const content = createRawSnippet(() => ({
  render: () =>
    `<div><h2 id="m-title">Title</h2><p id="m-body">Body</p><input aria-label="Word" />` +
    `<button type="button">One</button><button type="button" disabled>Off</button>` +
    `<button type="button">Two</button></div>`,
}));

function open(props: Partial<{ stops: string; returnfocus: boolean }> = {}) {
  const onescape = vi.fn();
  const r = render(Modal, {
    props: { labelledby: 'm-title', describedby: 'm-body', onescape, children: content, ...props },
  });
  return { onescape, ...r };
}

describe('Modal', () => {
  it('is a modal dialog named by its title and described by its body', () => {
    open();
    const dialog = screen.getByRole('dialog', { name: 'Title' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-describedby')).toBe('m-body');
    expect(dialog.getAttribute('tabindex')).toBe('-1');
  });

  it('calls onescape on Esc', async () => {
    const { onescape } = open();
    await fireEvent.keyDown(screen.getByRole('button', { name: 'One' }), { key: 'Escape' });
    expect(onescape).toHaveBeenCalledTimes(1);
  });

  it('lets no key reach the desk underneath', async () => {
    const desk = vi.fn();
    window.addEventListener('keydown', desk);
    try {
      open();
      await fireEvent.keyDown(screen.getByRole('button', { name: 'One' }), { key: 'b' });
      await fireEvent.keyDown(screen.getByRole('button', { name: 'One' }), { key: 'Escape' });
      await fireEvent.keyDown(screen.getByRole('button', { name: 'Two' }), { key: 'Tab' });
      expect(desk).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('keydown', desk);
    }
  });

  it('wraps Tab and Shift+Tab over the enabled buttons only by default', async () => {
    open();
    const one = screen.getByRole('button', { name: 'One' });
    const two = screen.getByRole('button', { name: 'Two' });
    two.focus();
    expect(await fireEvent.keyDown(two, { key: 'Tab' })).toBe(false);
    expect(document.activeElement).toBe(one);
    expect(await fireEvent.keyDown(one, { key: 'Tab', shiftKey: true })).toBe(false);
    expect(document.activeElement).toBe(two);
    // Inside the cycle Tab is the browser's: nothing prevented, focus not moved by the dialog.
    one.focus();
    expect(await fireEvent.keyDown(one, { key: 'Tab' })).toBe(true);
    expect(document.activeElement).toBe(one);
  });

  it('cycles over the controls its stops select', async () => {
    open({ stops: 'input, button:not([disabled])' });
    const word = screen.getByRole('textbox', { name: 'Word' });
    const two = screen.getByRole('button', { name: 'Two' });
    two.focus();
    await fireEvent.keyDown(two, { key: 'Tab' });
    expect(document.activeElement).toBe(word);
    await fireEvent.keyDown(word, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(two);
  });

  it('puts focus back where it was when it closes', () => {
    const outside = document.body.appendChild(document.createElement('button'));
    outside.focus();
    const { unmount } = open();
    screen.getByRole('button', { name: 'One' }).focus();
    unmount();
    expect(document.activeElement).toBe(outside);
  });

  it('leaves focus alone on close when the caller places it', () => {
    const outside = document.body.appendChild(document.createElement('button'));
    outside.focus();
    const { unmount } = open({ returnfocus: false });
    screen.getByRole('button', { name: 'One' }).focus();
    unmount();
    expect(document.activeElement).not.toBe(outside);
  });
});
