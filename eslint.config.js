// Lint rules that keep the architecture true (see DESIGN.md): only src/main/electron and
// src/preload may import electron; the renderer and src/shared never import Node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const noElectron = {
  name: 'electron',
  message: 'Only src/main/electron and src/preload may import electron (DESIGN.md).',
};
const noNode = nodeBuiltins.map((name) => ({
  name,
  message: 'The renderer and src/shared must not use Node built-ins (DESIGN.md).',
}));

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
    files: ['src/main/electron/**', 'src/preload/**', 'test/unit/electron/**', 'scripts/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/renderer/**', 'src/shared/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron, ...noNode] }] },
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
