// Lint rules that keep the architecture true (docs/architecture.md, "Layers"): which part
// may import which. Each zone is an allow-list of the parts its files may import; a test
// (test/unit/lint/import-zones.test.ts) shows every rule firing.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

const WHY = 'See docs/architecture.md, "Layers".';
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const noElectron = {
  name: 'electron',
  message: `Only src/main/electron and src/preload may import electron. ${WHY}`,
};
const noNode = nodeBuiltins.map((name) => ({
  name,
  message: `The renderer and src/shared must not use Node built-ins. ${WHY}`,
}));

/** A folder of src/ that an import specifier (relative or not) points into. */
const into = (folder) => `(^|/)${folder}/`;

/**
 * The parts of src/ an import can point into. Each zone below is an allow-list (as VS
 * Code's code-layering): it names the parts its files may import, and every other part is
 * forbidden with the zone's reason. Imports inside a part (`../sync/…`) name no part's
 * folder, so they never match.
 */
const PARTS = {
  main: 'the app core (src/main)',
  electron: 'the Electron host (src/main/electron)',
  web: 'the web host (src/main/web)',
  relay: 'the relay (src/relay)',
  simulator: 'the simulator (src/simulator)',
  preload: 'the preload (src/preload)',
  renderer: 'the renderer (src/renderer)',
  node: 'shared Node code (src/node)',
};
const partRegex = {
  main: into('main'),
  electron: into('electron'),
  web: into('web'),
  relay: into('relay'),
  simulator: into('simulator'),
  preload: into('preload'),
  renderer: into('renderer'),
  node: into('node'),
};

/** The forbidden edges of a zone that may import `allowed` (src/shared is always allowed). */
function allowOnly(zoneName, allowed, why) {
  const may = ['src/shared', ...allowed.map((p) => PARTS[p])].join(', ');
  return Object.keys(PARTS)
    .filter((part) => !allowed.includes(part))
    .map((part) => ({
      regex: partRegex[part],
      message: `${zoneName} may import only ${may}: not ${PARTS[part]}. ${why} ${WHY}`,
    }));
}

const CORE = 'The core';
const rules = {
  core: allowOnly(
    CORE,
    ['node'],
    'The hosts wire the core, not the other way round; the simulator is loaded only by src/main/demo.ts; the relay runs without the app.',
  ),
  demo: allowOnly(
    'src/main/demo.ts',
    ['node', 'simulator'],
    'It is the one module that loads the simulator (lazily: demo mode runs it in-process).',
  ),
  electron: allowOnly(
    'The Electron host',
    ['main', 'electron', 'node'],
    'A host starts the core (demo mode through src/main/demo.ts), never the simulator or the other host.',
  ),
  web: allowOnly(
    'The web host',
    ['main', 'web', 'node'],
    'A host starts the core (demo mode through src/main/demo.ts), never the simulator or the other host.',
  ),
  relay: allowOnly(
    'src/relay',
    ['node'],
    'The relay runs on its own server without the app or the simulator; shared Node code lives in src/node.',
  ),
  simulator: allowOnly(
    'src/simulator',
    ['node'],
    'The simulator stands for the service: it knows nothing of the app or the relay.',
  ),
  preload: allowOnly(
    'src/preload',
    [],
    'It runs sandboxed in the renderer process and exposes exactly the IPC contract.',
  ),
  renderer: allowOnly('The renderer', [], 'It reaches the app through the bridge.'),
  node: allowOnly(
    'src/node (Node code shared by the app and the relay)',
    [],
    'Every Node part may import it, so it imports none of them.',
  ),
  shared: allowOnly(
    'src/shared',
    [],
    'Every part may import it, so it imports nothing else in src.',
  ),
};

/** `no-restricted-imports` for static imports and exports, `no-restricted-syntax` for `import()`. */
/** The relay's store folders may not import the folders that serve (docs/architecture.md). */
const RELAY_STORES_ONLY = {
  regex: '(^|/)(stream|routes|gateway|desk|desk-ops|cli|calendar-feed|ingest)/',
  message: `The relay's stores (log/, redis/, db/, users/) may import only each other, src/shared and src/node: not the parts that serve (stream/, routes/, gateway/, desk/, desk-ops/, cli/, calendar-feed/, ingest/). ${WHY}`,
};

/**
 * A shipped migration must write what it wrote when it shipped: it imports only the frozen
 * helpers of its own folder (migrations/frozen/) and packages, never live code whose next
 * change would rewrite an old migration's output (docs/architecture.md, "The store").
 */
const MIGRATION_FROZEN = {
  regex: '^\\.\\./',
  message:
    'A migration imports only ./frozen/ helpers and packages, never live code: copy what it needs into migrations/frozen/ and never edit it. See docs/architecture.md, "The store".',
};

function zone(restricted, paths = [noElectron]) {
  // esquery regexes cannot contain "/": \u002F stands for it.
  const dynamic = restricted.map((e) => ({
    selector: `ImportExpression[source.value=/${e.regex.replaceAll('/', '\\u002F')}/]`,
    message: e.message,
  }));
  return {
    'no-restricted-imports': ['error', { paths, patterns: restricted }],
    'no-restricted-syntax': ['error', ...dynamic],
  };
}

/**
 * An effect written as an arrow with an expression body returns that expression, and React
 * calls whatever an effect returns as its cleanup: `useEffect(() => el.scrollIntoView())`
 * returned a Promise in current Chromium and blanked the app at the next render (issue 42).
 * Effects take a block body and `return` only a cleanup.
 */
const effectReturnsCleanupOnly = {
  meta: {
    type: 'problem',
    messages: {
      expressionBody:
        "{{hook}}'s arrow returns its expression, which React calls as the cleanup: write a block body, `return` only a cleanup function.",
    },
    schema: [],
  },
  create(context) {
    const EFFECTS = new Set(['useEffect', 'useLayoutEffect', 'useInsertionEffect']);
    return {
      CallExpression(node) {
        const callee = node.callee;
        const hook =
          callee.type === 'Identifier'
            ? callee.name
            : callee.type === 'MemberExpression' && callee.property.type === 'Identifier'
              ? callee.property.name
              : null;
        const effect = node.arguments[0];
        if (!hook || !EFFECTS.has(hook) || effect?.type !== 'ArrowFunctionExpression') return;
        // `() => () => …` returns a cleanup written in place: the one expression allowed
        const returnsFunction = ['ArrowFunctionExpression', 'FunctionExpression'];
        if (effect.body.type !== 'BlockStatement' && !returnsFunction.includes(effect.body.type))
          context.report({ node: effect, messageId: 'expressionBody', data: { hook } });
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: ['node_modules', 'out', 'dist', 'release', 'coverage', 'docs', '.electron-native'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [noElectron] }],
    },
  },
  {
    // Short functions that read top-down: wiring over modules, not closures that grow. Data
    // tables are one literal: exempt.
    files: ['src/**/*.ts'],
    ignores: ['src/simulator/data/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-use-before-define': [
        'error',
        { functions: false, classes: false, variables: true, typedefs: false, enums: true },
      ],
    },
  },
  {
    // React components too: hooks and subcomponents out, as for .ts (#46 item 7).
    files: ['src/**/*.tsx'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/main/**'],
    ignores: ['src/main/electron/**', 'src/main/web/**', 'src/main/demo.ts'],
    rules: zone(rules.core),
  },
  {
    files: ['src/main/store/migrations/**'],
    ignores: ['src/main/store/migrations/index.ts'],
    rules: zone([...rules.core, MIGRATION_FROZEN]),
  },
  { files: ['src/main/demo.ts'], rules: zone(rules.demo) },
  { files: ['src/main/web/**'], rules: zone(rules.web) },
  { files: ['src/main/electron/**'], rules: zone(rules.electron, []) },
  { files: ['src/relay/**'], rules: zone(rules.relay) },
  {
    // Inside the relay: the stores (log/, redis/, db/, users/) are what the serving parts
    // stand on, and never the reverse — a store that reached into a route or the SSE hub
    // would tie durability to a request's life.
    files: ['src/relay/log/**', 'src/relay/redis/**', 'src/relay/db/**', 'src/relay/users/**'],
    rules: zone([...rules.relay, RELAY_STORES_ONLY]),
  },
  { files: ['src/simulator/**'], rules: zone(rules.simulator) },
  { files: ['src/node/**'], rules: zone(rules.node) },
  { files: ['src/preload/**'], rules: zone(rules.preload, []) },
  {
    files: ['test/unit/electron/**', 'scripts/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: zone(rules.renderer, [noElectron, ...noNode]),
  },
  {
    files: ['src/shared/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: zone(rules.shared, [noElectron, ...noNode]),
  },
  {
    files: ['src/renderer/**/*.tsx', 'src/renderer/**/*.ts'],
    plugins: {
      'react-hooks': reactHooks,
      macrobell: { rules: { 'effect-returns-cleanup-only': effectReturnsCleanupOnly } },
    },
    rules: {
      'macrobell/effect-returns-cleanup-only': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
