// The renderer's only way to main: window.bridge, as the Electron preload or the browser-mode host's
// bridge script defines it. Contract types only: nothing of main's code is bundled here.
import type { BridgeApi, IpcResult } from '@contract';

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

/** The page's link to main: browser mode's WebSocket can drop and come back; IPC never fires this. */
export type LinkState = 'open' | 'lost';
/** The window event the browser-mode bridge script dispatches (detail: LinkState). */
export const LINK_EVENT = 'orderdesk:link';

export function onLinkChange(cb: (state: LinkState) => void, win: Window = window): () => void {
  const listener = (e: Event) => {
    const state = (e as CustomEvent<unknown>).detail;
    if (state === 'open' || state === 'lost') cb(state);
  };
  win.addEventListener(LINK_EVENT, listener);
  return () => win.removeEventListener(LINK_EVENT, listener);
}
