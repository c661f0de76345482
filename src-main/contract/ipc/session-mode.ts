// Whether the active profile trades simulated or real money; a leaf module so the session snapshot
// and the tray state (events.ts) share the one enum without importing each other.
import { z } from 'zod';

/** `paper`: the embedded paper gateway (simulated money); `live`: a gateway profile. */
export const SESSION_MODES = ['paper', 'live'] as const;
export const SessionMode = z.enum(SESSION_MODES);
export type SessionMode = z.infer<typeof SessionMode>;
