// Cancel all's and close all's reports fold to one line after REPORT_COLLAPSE_MS, so the book below
// stays in view; Details opens one again (and stays open); a notice without a summary never folds.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import BookNotice, { REPORT_COLLAPSE_MS } from '../../../src-renderer/src/components/BookNotice.svelte';
import { cancelAllSummary, cancelAllText } from '../../../src-renderer/src/lib/order-requests';
import NoticeWithDetails from '../../support/component/NoticeWithDetails.svelte';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

const LEFT = [{ orderid: '2611', message: 'already complete' }];

describe('a report folds to one line', () => {
  it('cancel all: the full text first, then "Cancelled 3 of 4 · 1 failed" with a Details toggle', async () => {
    vi.useFakeTimers();
    const done = ['1', '2', '3'];
    render(BookNotice, {
      props: {
        tone: 'error',
        text: cancelAllText(done, LEFT),
        summary: cancelAllSummary(done, LEFT),
        ondismiss: () => undefined,
      },
    });
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Cancel all: 3 cancelled, 1 not: 2611 (already complete)');
    await vi.advanceTimersByTimeAsync(REPORT_COLLAPSE_MS - 100);
    expect(status.textContent).toContain('2611 (already complete)');
    await vi.advanceTimersByTimeAsync(200);
    expect(status.textContent).toContain('Cancelled 3 of 4 · 1 failed');
    expect(status.textContent).not.toContain('already complete');
    const toggle = screen.getByRole('button', { name: 'Details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await fireEvent.click(toggle);
    expect(status.textContent).toContain('2611 (already complete)');
    // Opened by hand: it stays open.
    await vi.advanceTimersByTimeAsync(REPORT_COLLAPSE_MS * 2);
    expect(screen.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('drawn again after its time (a resize to the narrow layout), a report shows folded, not open again', async () => {
    vi.useFakeTimers();
    const at = Date.now() - REPORT_COLLAPSE_MS - 1;
    render(BookNotice, {
      props: {
        tone: 'ok',
        text: 'Cancel all: 2 cancelled',
        summary: 'Cancelled 2 of 2 · 0 failed',
        at,
        ondismiss: () => undefined,
      },
    });
    expect(screen.getByRole('status').textContent).toContain('Cancelled 2 of 2 · 0 failed');
    expect(screen.getByRole('button', { name: 'Details' })).toBeInTheDocument();
  });

  it('one line (the narrow list): the whole text in its tooltip, no steps until Details is pressed', async () => {
    render(NoticeWithDetails, { props: { oneLine: true } });
    const status = screen.getByRole('status');
    expect(status.querySelector('.text')?.getAttribute('title')).toBe('Flat: every position is closed');
    // Drawn on one line (nowrap, ellipsis) from the start.
    expect(status.classList.contains('folded')).toBe(true);
    expect(screen.queryByTestId('steps')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(screen.getByTestId('steps')).toBeInTheDocument();
  });

  it('a plain notice (no summary) never folds and has no toggle', async () => {
    vi.useFakeTimers();
    render(BookNotice, { props: { tone: 'ok', text: 'Exit sent', ondismiss: () => undefined } });
    await vi.advanceTimersByTimeAsync(REPORT_COLLAPSE_MS * 2);
    expect(screen.getByRole('status').textContent).toContain('Exit sent');
    expect(screen.queryByRole('button', { name: 'Details' })).toBeNull();
  });

  it('a report not yet final (close all running) stays open', async () => {
    vi.useFakeTimers();
    render(BookNotice, {
      props: {
        tone: 'pending',
        text: 'Close all running…',
        summary: 'x',
        final: false,
        ondismiss: () => undefined,
      },
    });
    await vi.advanceTimersByTimeAsync(REPORT_COLLAPSE_MS * 2);
    expect(screen.getByRole('status').textContent).toContain('Close all running…');
  });
});
