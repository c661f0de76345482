// CSV export's save dialog: the suggested name in Downloads, cancel is null.
import { describe, expect, it, vi } from 'vitest';
import { saveDialogPort } from '../../../src-main/desktop/save-dialog.js';

describe('saveDialogPort', () => {
  it('offers the suggested name in Downloads, parented to the window, and answers the chosen path', async () => {
    const showSaveDialog = vi.fn(async (..._args: unknown[]) => ({
      canceled: false,
      filePath: '/home/u/x.csv',
    }));
    const parent = { id: 1 };
    const choose = saveDialogPort({ showSaveDialog } as never, {
      downloadsDir: '/home/u/Downloads',
      parent: () => parent as never,
    });
    await expect(choose('journal-2026-11-23.csv')).resolves.toBe('/home/u/x.csv');
    expect(showSaveDialog.mock.calls[0]?.[0]).toBe(parent);
    expect(showSaveDialog.mock.calls[0]?.[1]).toMatchObject({
      defaultPath: '/home/u/Downloads/journal-2026-11-23.csv',
      filters: [{ name: 'CSV', extensions: ['csv'] }],
    });
  });

  it('answers null when cancelled, and a name never picks the folder', async () => {
    const showSaveDialog = vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePath: '' }));
    const choose = saveDialogPort({ showSaveDialog } as never, {
      downloadsDir: '/d',
      parent: () => undefined,
    });
    await expect(choose('../../etc/x.csv')).resolves.toBeNull();
    expect(showSaveDialog.mock.calls[0]?.[0]).toMatchObject({ defaultPath: '/d/.._.._etc_x.csv' });
  });
});
