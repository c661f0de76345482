// The renderer's only way to main: window.bridge, as the Electron preload or the browser-mode host's
// bridge script defines it. Contract types only: nothing of main's code is bundled here.
import type { BridgeApi, IpcResult } from '../../../src-main/contract/index.js';

declare global {
  interface Window {
    bridge?: BridgeApi;
  }
}

const MISSING = 'window.bridge is missing: open OrderDesk through the app or the link npm run web prints';

/** Stands in when no bridge was given, so every call answers with why instead of throwing. */
const missingBridge: BridgeApi = {
  invoke: async () => ({ ok: false, error: { kind: 'internal', message: MISSING } }) as IpcResult<never>,
  on: () => () => undefined,
};

export function getBridge(win: Pick<Window, 'bridge'> = window): BridgeApi {
  return win.bridge ?? missingBridge;
}
