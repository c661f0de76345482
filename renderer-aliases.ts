// The renderer's path aliases, one list for the build, the component tests and the layer rule's
// resolution: `@contract` is the contract module (types only), `@shared/…` the pure code both
// processes import as values. tsconfig.web.json's `paths` says the same for the type checker.
import { fileURLToPath } from 'node:url';

const at = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export const RENDERER_ALIASES: Record<string, string> = {
  '@contract': at('./src-main/contract/index.ts'),
  '@shared': at('./src-main/shared'),
};
