// The core's ChooseSavePath port (CSV export) as Electron's save dialog, parented to the ticket window
// so it opens in front of it. Offers the Downloads folder and the core's suggested name.
import type { BrowserWindow, Dialog } from 'electron';
import { join } from 'node:path';
import type { ChooseSavePath } from '../core/index.js';

export function saveDialogPort(
  dialog: Pick<Dialog, 'showSaveDialog'>,
  o: { downloadsDir: string; parent(): BrowserWindow | undefined },
): ChooseSavePath {
  return async (suggestedName) => {
    const options = {
      title: 'Export to CSV',
      // Only the base name: a suggested name never picks the folder.
      defaultPath: join(o.downloadsDir, suggestedName.replace(/[\\/]/g, '_')),
      filters: [{ name: 'CSV', extensions: ['csv'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'] as (
        'createDirectory' | 'showOverwriteConfirmation'
      )[],
    };
    const parent = o.parent();
    const r = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
    return r.canceled || !r.filePath ? null : r.filePath;
  };
}
