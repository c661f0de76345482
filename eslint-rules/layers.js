// The dependency direction of architecture rule 2, as one lint rule. Every import (static, dynamic,
// re-export, `require`, `import('…')` types) is resolved against the importing file's own path and
// both ends are classified by their top-level directory, so the rule holds at any depth
// (`../../paper/x.js` from src-main/core/router/ is caught like `../paper/x.js` from src-main/core/).
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: classification is by path inside it, whatever the linter's cwd. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Which layers of src-main each layer may import (its own included). shared is pure code both
 * processes import as values: it imports only itself (no package, no Node either).
 */
export const ALLOWED = {
  shared: ['shared'],
  contract: ['shared', 'contract'],
  gateway: ['shared', 'contract', 'gateway'],
  paper: ['shared', 'contract', 'paper'],
  core: ['shared', 'contract', 'gateway', 'core'],
  desktop: ['shared', 'contract', 'gateway', 'core', 'desktop'],
  web: ['shared', 'contract', 'gateway', 'core', 'web'],
  preload: ['shared', 'contract'],
};

/**
 * Composition roots: they build the app from the layers and may import any of them. Paths without
 * extension; a directory ends with `/`. web/cli.ts is browser mode's entry, as index.ts is Electron's.
 */
const ROOTS = ['src-main/index', 'src-main/cli/', 'src-main/composition/', 'src-main/web/cli'];
/** The only places `electron` may be imported. */
const ELECTRON = ['src-main/index', 'src-main/preload', 'src-main/desktop/'];
/** Never imported by shipped code. */
const NOT_SOURCE = ['test/', 'bench/', 'scripts/'];

const matches = (path, prefixes) => prefixes.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));
const withoutExtension = (path) => path.replace(/\.(d\.ts|[cm]?[jt]s|svelte\.[jt]s|svelte)$/, '');

/**
 * Where a project path sits: `main` with its layer (`root`, a key of ALLOWED, or undefined when
 * src-main has no such layer), `renderer`, `other` (tests, scripts, config), or `outside`.
 */
export function classify(projectPath) {
  const path = withoutExtension(projectPath);
  if (path.startsWith('../') || path === '..') return { area: 'outside', path };
  if (path.startsWith('src-renderer/')) return { area: 'renderer', path };
  if (!path.startsWith('src-main/')) return { area: 'other', path };
  if (matches(path, ROOTS)) return { area: 'main', layer: 'root', path };
  if (path === 'src-main/preload') return { area: 'main', layer: 'preload', path };
  // A layer's directory or anything in it (`../core` names core's index); src-main's other files are in none.
  const [, top, ...rest] = path.split('/');
  const layer = top !== 'preload' && Object.hasOwn(ALLOWED, top) ? top : undefined;
  return { area: 'main', layer, path: `src-main/${top}${rest.length > 0 || layer ? '/' : ''}` };
}

function isNodeBuiltin(spec) {
  return (
    spec.startsWith('node:') || builtinModules.includes(spec) || builtinModules.includes(spec.split('/')[0])
  );
}

const isElectron = (spec) => spec === 'electron' || spec.startsWith('electron/');

/** The renderer's path aliases (renderer-aliases.ts), as project paths the rule classifies. */
function aliasTarget(spec) {
  if (spec === '@contract') return resolve(ROOT, 'src-main/contract/index.ts');
  if (spec === '@shared' || spec.startsWith('@shared/'))
    return resolve(ROOT, 'src-main/shared', spec.slice(8));
  return undefined;
}

/** A string a specifier node stands for: a literal, a plain template, or a const holding one. */
function staticString(node, sourceCode) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked;
  if (node.type === 'Identifier') {
    let scope = sourceCode.getScope(node);
    while (scope) {
      const v = scope.set.get(node.name);
      if (v) {
        const def = v.defs[0];
        const declaration = def?.parent;
        if (def?.type === 'Variable' && declaration?.kind === 'const' && v.defs.length === 1)
          return staticString(def.node.init, sourceCode);
        return undefined;
      }
      scope = scope.upper;
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the dependency direction between layers (architecture rule 2)' },
    schema: [],
    messages: {
      layer: '{{from}} may not import {{to}}: {{layer}} imports {{allowed}} only (architecture rule 2).',
      root: '{{from}} may not import the composition root {{to}}: roots import layers, never the reverse.',
      unknownLayer:
        '{{from}} is in no layer: add its directory to eslint-rules/layers.js (architecture rule 2).',
      unknownTarget: '{{from}} imports {{to}}, which is in no layer of src-main.',
      electron:
        'electron may be imported only in src-main/index.ts, src-main/preload.ts and src-main/desktop/.',
      rendererMain:
        'The renderer imports nothing from src-main but shared and contract types ({{to}} is neither).',
      sharedPackage:
        'src-main/shared/ is pure and dependency-free: it imports only shared, not {{spec}} (architecture rule 2).',
      rendererValue:
        'The renderer imports contract types only: use `import type` (or type-only specifiers) for {{to}}.',
      rendererNode: 'The renderer has no Node: {{spec}} is a Node module.',
      mainRenderer: 'src-main never imports renderer code ({{to}}).',
      notSource: 'Shipped code never imports {{to}}.',
      computed: 'The path of this import is computed, so its layer cannot be checked: use a string literal.',
    },
  },
  create(context) {
    const filename = context.physicalFilename ?? context.filename;
    if (!isAbsolute(filename)) return {};
    const from = classify(relative(ROOT, filename).split(sep).join('/'));
    if (from.area !== 'main' && from.area !== 'renderer') return {};
    const sourceCode = context.sourceCode;

    function check(node, spec, typeOnly) {
      if (spec === undefined) {
        context.report({ node, messageId: 'computed' });
        return;
      }
      if (isElectron(spec)) {
        if (!(from.area === 'main' && matches(from.path, ELECTRON)))
          context.report({ node, messageId: 'electron' });
        return;
      }
      if (from.area === 'renderer' && isNodeBuiltin(spec)) {
        context.report({ node, messageId: 'rendererNode', data: { spec } });
        return;
      }
      const aliased = aliasTarget(spec);
      // Packages: only electron, (in the renderer) Node and (in shared) anything are restricted.
      if (aliased === undefined && !spec.startsWith('.') && !spec.startsWith('/')) {
        if (from.layer === 'shared') context.report({ node, messageId: 'sharedPackage', data: { spec } });
        return;
      }
      const target = aliased ?? resolve(dirname(filename), spec);
      const to = classify(relative(ROOT, target).split(sep).join('/'));
      const data = { from: from.path, to: to.path };
      if (to.area === 'other' && matches(to.path, NOT_SOURCE))
        return context.report({ node, messageId: 'notSource', data });
      if (from.area === 'renderer') {
        if (to.area !== 'main' || to.layer === 'shared') return;
        if (to.layer !== 'contract') return context.report({ node, messageId: 'rendererMain', data });
        if (!typeOnly) context.report({ node, messageId: 'rendererValue', data });
        return;
      }
      if (to.area === 'renderer') return context.report({ node, messageId: 'mainRenderer', data });
      if (to.area !== 'main' || from.layer === undefined || from.layer === 'root') return;
      if (to.layer === 'root') return context.report({ node, messageId: 'root', data });
      if (to.layer === undefined) return context.report({ node, messageId: 'unknownTarget', data });
      const allowed = ALLOWED[from.layer];
      if (!allowed.includes(to.layer))
        context.report({
          node,
          messageId: 'layer',
          data: { ...data, layer: from.layer, allowed: allowed.join(', ') },
        });
    }

    const typeSpecifiers = (specifiers, kind) =>
      specifiers.length > 0 && specifiers.every((s) => s[kind] === 'type');

    return {
      Program(node) {
        if (from.area === 'main' && from.layer === undefined)
          context.report({ node, messageId: 'unknownLayer', data: { from: from.path } });
      },
      ImportDeclaration(node) {
        const typeOnly = node.importKind === 'type' || typeSpecifiers(node.specifiers, 'importKind');
        check(node.source, node.source.value, typeOnly);
      },
      ExportNamedDeclaration(node) {
        if (!node.source) return;
        const typeOnly = node.exportKind === 'type' || typeSpecifiers(node.specifiers, 'exportKind');
        check(node.source, node.source.value, typeOnly);
      },
      ExportAllDeclaration(node) {
        check(node.source, node.source.value, node.exportKind === 'type');
      },
      ImportExpression(node) {
        check(node.source, staticString(node.source, sourceCode), false);
      },
      TSImportType(node) {
        const literal = node.source ?? node.argument?.literal;
        check(node, staticString(literal, sourceCode), true);
      },
      TSExternalModuleReference(node) {
        check(node.expression, staticString(node.expression, sourceCode), false);
      },
      CallExpression(node) {
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'require') return;
        if (node.arguments.length !== 1) return;
        check(node.arguments[0], staticString(node.arguments[0], sourceCode), false);
      },
    };
  },
};

export default { meta: { name: 'orderdesk-layers' }, rules: { layers: layersRule } };
