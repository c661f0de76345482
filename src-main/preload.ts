// The renderer's only door to the main process; the channel allowlist arrives with the router.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('bridge', Object.freeze({ version: 1 }));
