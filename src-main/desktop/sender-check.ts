// Who may call the core over IPC: the main frame of the app's own window, showing the app's own page
// (app://bundle, or the dev server in an unpackaged dev run). Anything else — a subframe, another
// window, a page the window was somehow navigated to, a destroyed frame — is refused.
import type { IpcMainInvokeEvent } from 'electron';
import { isAppUrl } from './app-url.js';

export interface SenderInfo {
  /** The sending web contents' id. */
  contentsId: number;
  /** Null when the frame is gone (navigated away or destroyed) by the time the message is read. */
  frame: { url: string; isMainFrame: boolean } | null;
}

export interface SenderTrust {
  /** Ids of the web contents of the app's own windows. */
  isAppContents(id: number): boolean;
  /** An unpackaged dev run's renderer origin (ELECTRON_RENDERER_URL), trusted besides app://bundle. */
  devOrigin?: string;
}

export function senderInfo(e: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>): SenderInfo {
  const frame = e.senderFrame;
  return {
    contentsId: e.sender.id,
    // A main frame has no parent; a subframe of the app page must not call the core either.
    frame: frame ? { url: frame.url, isMainFrame: frame.parent === null } : null,
  };
}

function isDevUrl(url: string, devOrigin: string | undefined): boolean {
  if (!devOrigin) return false;
  try {
    return new URL(url).origin === new URL(devOrigin).origin;
  } catch {
    return false;
  }
}

export function isTrustedSender(info: SenderInfo, trust: SenderTrust): boolean {
  if (!trust.isAppContents(info.contentsId)) return false;
  if (!info.frame || !info.frame.isMainFrame) return false;
  return isAppUrl(info.frame.url) || isDevUrl(info.frame.url, trust.devOrigin);
}
