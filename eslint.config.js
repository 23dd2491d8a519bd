// Lint rules that keep the architecture true (docs/architecture.md, "Layers"): which part
// may import which. Each zone below lists what its files must not import; a test
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
const edges = {
  hosts: {
    regex: `${into('electron')}|${into('web')}`,
    message: `The core (src/main outside electron/ and web/) never imports the hosts (src/main/electron, src/main/web): they wire the core, not the other way round. ${WHY}`,
  },
  simulator: {
    regex: into('simulator'),
    message: `The app never imports the simulator (the packaged app must not ship the fake service): only src/main/demo.ts may, lazily. ${WHY}`,
  },
  relayToMain: {
    regex: into('main'),
    message: `src/relay never imports src/main (the relay runs without the app); shared Node code lives in src/node. ${WHY}`,
  },
  renderer: {
    regex: `${into('main')}|${into('relay')}|${into('simulator')}|${into('preload')}|${into('node')}`,
    message: `The renderer imports only src/shared and itself; it reaches the app through the bridge. ${WHY}`,
  },
  shared: {
    regex: `${into('main')}|${into('relay')}|${into('simulator')}|${into('preload')}|${into('node')}|${into('renderer')}`,
    message: `src/shared imports nothing else in src: every part may import it. ${WHY}`,
  },
  node: {
    regex: `${into('main')}|${into('relay')}|${into('simulator')}|${into('preload')}|${into('renderer')}`,
    message: `src/node (Node code shared by the app and the relay) imports only src/shared. ${WHY}`,
  },
};

/** `no-restricted-imports` for static imports and exports, `no-restricted-syntax` for `import()`. */
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
    files: ['src/main/**'],
    ignores: ['src/main/electron/**', 'src/main/web/**', 'src/main/demo.ts'],
    rules: zone([edges.hosts, edges.simulator]),
  },
  { files: ['src/main/demo.ts'], rules: zone([edges.hosts]) },
  { files: ['src/main/web/**'], rules: zone([edges.simulator]) },
  { files: ['src/main/electron/**'], rules: zone([edges.simulator], []) },
  { files: ['src/relay/**'], rules: zone([edges.relayToMain]) },
  { files: ['src/node/**'], rules: zone([edges.node]) },
  {
    files: ['src/preload/**', 'test/unit/electron/**', 'scripts/**'],
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
    rules: zone([edges.renderer], [noElectron, ...noNode]),
  },
  {
    files: ['src/shared/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: zone([edges.shared], [noElectron, ...noNode]),
  },
  {
    files: ['src/renderer/**/*.tsx', 'src/renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
