// Architecture rule 2 as the linter enforces it: ESLint run with the project's own config over
// planted files, so a change to the rule or to eslint.config.js that lets a forbidden import through
// fails here.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: `${root}/eslint.config.js` });
});

/** The layer rule's messages for `code` linted as if it were at `filePath` (project-relative). */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${filePath}` });
  const messages = result?.messages ?? [];
  // A parse error would hide the rule: fail loudly instead of passing for the wrong reason.
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filePath}: ${fatal.message}`);
  return messages.filter((m) => m.ruleId === 'orderdesk/layers').map((m) => m.message);
}

describe('core', () => {
  it('may not import paper, at any directory depth, statically, dynamically or for types', async () => {
    const planted = [
      ['src-main/core/planted.ts', "import { startPaperGateway } from '../paper/gateway.js';"],
      ['src-main/core/router/planted.ts', "export { startPaperGateway } from '../../paper/gateway.js';"],
      ['src-main/core/a/b/planted.ts', "import type { PaperGateway } from '../../../paper/gateway.js';"],
      ['src-main/core/planted.ts', "export const p = () => import('../paper/gateway.js');"],
      ['src-main/core/planted.ts', "const m = '../paper/gateway.js';\nexport const p = () => import(m);"],
      ['src-main/core/planted.ts', "import { x } from '../core/../paper/index.js';"],
    ] as const;
    for (const [file, code] of planted) {
      const errors = await layerErrors(file, code);
      expect(errors, `${file}: ${code}`).toHaveLength(1);
      expect(errors[0]).toMatch(/src-main\/core\/ may not import src-main\/paper\//);
    }
  });

  it('may not import electron, bare or a subpath, even for types', async () => {
    for (const code of [
      "import { app } from 'electron';",
      "import type { BrowserWindow } from 'electron';",
      "import { ipcMain } from 'electron/main';",
    ]) {
      const errors = await layerErrors('src-main/core/planted.ts', code);
      expect(errors, code).toEqual([expect.stringMatching(/^electron may be imported only in/)]);
    }
  });

  it('may import gateway, shared, contract and itself; packages and Node are its own business', async () => {
    const code = [
      "import { createGatewayClient } from '../gateway/index.js';",
      "import { planSplit } from '../../shared/split-plan.js';",
      "import type { Profile } from '../contract/index.js';",
      "import { createJournal } from './journal/index.js';",
      "import Database from 'better-sqlite3';",
      "import { join } from 'node:path';",
      // A const specifier is resolved (keytar-backend.ts loads its optional module this way).
      "const KEYTAR = 'keytar';\nexport const load = () => import(KEYTAR);",
    ].join('\n');
    expect(await layerErrors('src-main/core/router/planted.ts', code)).toEqual([]);
  });

  it('refuses an import whose path it cannot know', async () => {
    const errors = await layerErrors(
      'src-main/core/planted.ts',
      'export const load = (name: string) => import(`../${name}/gateway.js`);',
    );
    expect(errors).toEqual([expect.stringMatching(/computed/)]);
  });
});

describe('the other layers', () => {
  it('paper imports contract and shared only', async () => {
    expect(
      await layerErrors(
        'src-main/paper/engine/planted.ts',
        "import { planSplit } from '../../shared/split-plan.js';\nimport type { Quote } from '../../contract/index.js';",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src-main/paper/engine/planted.ts',
        "import { isActive } from '../../core/watcher/index.js';",
      ),
    ).toEqual([expect.stringMatching(/src-main\/paper\/ may not import src-main\/core\//)]);
    for (const layer of ['core', 'gateway', 'web', 'desktop', 'composition']) {
      const errors = await layerErrors('src-main/paper/planted.ts', `import { x } from '../${layer}/x.js';`);
      expect(errors, layer).toHaveLength(1);
    }
  });

  it('contract imports itself and shared; gateway not core', async () => {
    expect(
      await layerErrors('src-main/contract/ipc/planted.ts', "import { x } from '../../shared/x.js';"),
    ).toEqual([]);
    expect(
      await layerErrors('src-main/contract/ipc/planted.ts', "import { x } from '../../gateway/x.js';"),
    ).toHaveLength(1);
    expect(
      await layerErrors('src-main/contract/ipc/planted.ts', "import { x } from '../gateway/x.js';"),
    ).toEqual([]);
    expect(
      await layerErrors('src-main/gateway/planted.ts', "import { x } from '../core/x.js';"),
    ).toHaveLength(1);
    expect(await layerErrors('src-main/gateway/planted.ts', "import { x } from '../shared/x.js';")).toEqual(
      [],
    );
  });

  it('shared imports only shared: no other layer, no package, no Node', async () => {
    expect(
      await layerErrors('src-main/shared/planted.ts', "import { parseDecimal } from './decimal.js';"),
    ).toEqual([]);
    for (const code of [
      "import type { Action } from '../contract/index.js';",
      "import { x } from '../contract/core/x.js';",
      "import { createCore } from '../core/index.js';",
      "import { x } from '../gateway/x.js';",
      "import { x } from '../paper/x.js';",
      "import { x } from '../../src-renderer/src/lib/x.js';",
      "import { z } from 'zod';",
      "import { readFileSync } from 'node:fs';",
      "import { app } from 'electron';",
    ]) {
      const errors = await layerErrors('src-main/shared/planted.ts', code);
      expect(errors, code).toHaveLength(1);
    }
  });

  it('web imports core and below, never electron, paper or a composition root', async () => {
    expect(
      await layerErrors('src-main/web/planted.ts', "import { createCore } from '../core/index.js';"),
    ).toEqual([]);
    for (const code of [
      "import { app } from 'electron';",
      "import { startPaperGateway } from '../paper/gateway.js';",
      "import { embeddedPaperGateway } from '../composition/paper-port.js';",
      "import { x } from '../desktop/x.js';",
    ])
      expect(await layerErrors('src-main/web/planted.ts', code), code).toHaveLength(1);
  });

  it('desktop may import electron and core; composition roots anything of ours but electron', async () => {
    expect(
      await layerErrors(
        'src-main/desktop/planted.ts',
        "import { app } from 'electron';\nimport { createCore } from '../core/index.js';",
      ),
    ).toEqual([]);
    const wiring =
      "import { createCore } from '../core/index.js';\nimport { startPaperGateway } from '../paper/gateway.js';";
    for (const root of ['src-main/cli/planted.ts', 'src-main/composition/planted.ts', 'src-main/web/cli.ts'])
      expect(await layerErrors(root, wiring), root).toEqual([]);
    expect(await layerErrors('src-main/cli/planted.ts', "import { app } from 'electron';")).toHaveLength(1);
    expect(await layerErrors('src-main/index.ts', `${wiring}\nimport { app } from 'electron';`)).toEqual([]);
  });

  it('preload imports the contract, shared and electron only', async () => {
    const code =
      "import { contextBridge } from 'electron';\nimport { CHANNEL_NAMES } from './contract/index.js';\nimport { IPC_EVENT } from './shared/ipc-names.js';";
    expect(await layerErrors('src-main/preload.ts', code)).toEqual([]);
    expect(await layerErrors('src-main/preload.ts', "import { x } from './core/index.js';")).toHaveLength(1);
  });

  it('a directory of src-main that is in no layer is reported', async () => {
    expect(await layerErrors('src-main/misc/planted.ts', 'export const x = 1;')).toEqual([
      expect.stringMatching(/in no layer/),
    ]);
  });
});

describe('the renderer', () => {
  const contract = '../../../src-main/contract/index.js';

  it('imports contract types only: import type, or type-only specifiers', async () => {
    const code = [
      `import type { Profile } from '${contract}';`,
      `import { type BridgeApi, type IpcResult } from '${contract}';`,
      `export type { EventName } from '${contract}';`,
    ].join('\n');
    expect(await layerErrors('src-renderer/src/lib/planted.ts', code)).toEqual([]);
    expect(
      await layerErrors(
        'src-renderer/src/Planted.svelte',
        `<script lang="ts">\n  import type { Profile } from '${contract.slice(3)}';\n  let p: Profile | undefined;\n</script>\n<p>{p?.name}</p>\n`,
      ),
    ).toEqual([]);
  });

  it('a value import from the contract is an error, in .ts and .svelte', async () => {
    for (const code of [
      `import { CHANNELS } from '${contract}';`,
      `import { CHANNELS, type Profile } from '${contract}';`,
      `import '${contract}';`,
      `export * from '${contract}';`,
    ]) {
      const errors = await layerErrors('src-renderer/src/lib/planted.ts', code);
      expect(errors, code).toEqual([expect.stringMatching(/contract types only/)]);
    }
    const svelte = `<script lang="ts">\n  import { CHANNELS } from '${contract.slice(3)}';\n</script>\n<p>{Object.keys(CHANNELS).length}</p>\n`;
    expect(await layerErrors('src-renderer/src/Planted.svelte', svelte)).toEqual([
      expect.stringMatching(/contract types only/),
    ]);
  });

  it('reads the contract through the @contract alias under the same rule', async () => {
    const types = "import type { Profile } from '@contract';";
    expect(await layerErrors('src-renderer/src/lib/planted.ts', types)).toEqual([]);
    const values = "import { CHANNELS } from '@contract';";
    expect(await layerErrors('src-renderer/src/lib/planted.ts', values)).toEqual([
      expect.stringMatching(/contract types only/),
    ]);
  });

  it('imports shared as values, through the @shared alias or by path, in .ts and .svelte', async () => {
    const code = [
      "import { parseDecimal, type Dec } from '@shared/decimal.js';",
      "import { formatMoney } from '@shared/format.js';",
      "export { ORDER_EVENT_NAMES } from '@shared/ipc-names.js';",
      "import { planSplit } from '../../../src-main/shared/split-plan.js';",
    ].join('\n');
    expect(await layerErrors('src-renderer/src/lib/planted.ts', code)).toEqual([]);
    const svelte = `<script lang="ts">\n  import { formatMoney } from '@shared/format.js';\n</script>\n<p>{formatMoney(1)}</p>\n`;
    expect(await layerErrors('src-renderer/src/Planted.svelte', svelte)).toEqual([]);
  });

  it('imports nothing else from src-main, even types', async () => {
    for (const code of [
      "import type { Core } from '../../../src-main/core/index.js';",
      "import { createCore } from '../../../src-main/core/index.js';",
      "import { planSplit } from '../../../src-main/paper/x.js';",
    ]) {
      const errors = await layerErrors('src-renderer/src/lib/planted.ts', code);
      expect(errors, code).toEqual([expect.stringMatching(/nothing from src-main but/)]);
    }
  });

  it('has no Node and no electron', async () => {
    for (const code of [
      "import { readFileSync } from 'node:fs';",
      "import { readFile } from 'fs/promises';",
      "import path from 'path';",
      "import { ipcRenderer } from 'electron';",
    ]) {
      const errors = await layerErrors('src-renderer/src/lib/planted.ts', code);
      expect(errors, code).toHaveLength(1);
    }
    const svelte = `<script lang="ts">\n  import { readFileSync } from 'node:fs';\n  const t = readFileSync('x', 'utf8');\n</script>\n<p>{t}</p>\n`;
    expect(await layerErrors('src-renderer/src/Planted.svelte', svelte)).toEqual([
      expect.stringMatching(/has no Node/),
    ]);
  });

  it('may import svelte and its own modules', async () => {
    const code = "import { mount } from 'svelte';\nimport { istClock } from './ist-time';";
    expect(await layerErrors('src-renderer/src/lib/planted.ts', code)).toEqual([]);
  });
});

it('tests, benchmarks and scripts are outside the rule', async () => {
  const code =
    "import { app } from 'electron';\nimport { startPaperGateway } from '../src-main/paper/gateway.js';";
  expect(await layerErrors('test/planted.test.ts', code)).toEqual([]);
  expect(await layerErrors('bench/planted.bench.ts', code)).toEqual([]);
});
