// The API key as it crosses IPC (renderer → main only, write-only) and the secret store's status.
import { z } from 'zod';

// Windows Credential Manager caps a blob at 2560 bytes (~1280 UTF-16 chars); 512 leaves room.
export const API_KEY_MAX_LENGTH = 512;

export const ApiKeyInput = z
  .string({ error: 'API key must be a string' })
  .min(1, 'API key cannot be empty')
  .max(API_KEY_MAX_LENGTH, `API key must be at most ${API_KEY_MAX_LENGTH} characters`)
  // No whitespace or control characters: a pasted key with a stray newline is a common mistake.
  // Unicode control and format characters (zero-width spaces) come from careless copying.
  .regex(/^[^\s\p{Cc}\p{Cf}]+$/u, 'API key cannot contain spaces or control characters');

export const SECRET_BACKENDS = ['keychain', 'safe-storage', 'memory'] as const;
export const SecretStatus = z.object({
  backend: z.enum(SECRET_BACKENDS),
  /** False for memory: the key must be entered again at next start. */
  persistent: z.boolean(),
  warning: z.string().optional(),
});
export type SecretStatus = z.infer<typeof SecretStatus>;
