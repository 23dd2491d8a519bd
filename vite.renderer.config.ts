import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { noInlineRefreshPreamble } from './src/renderer/dev-preamble.js';

// The renderer, built once for both hosts: the Electron window (loadFile) and web mode.
// `--mode e2e` (the end-to-end tests' build) compiles in the test fault switches
// (src/renderer/src/lib/test-faults.ts); every other build leaves them out.
export default defineConfig(({ mode }) => ({
  define: { __MACROBELL_TEST_FAULTS__: JSON.stringify(mode === 'e2e') },
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  plugins: [react(), noInlineRefreshPreamble()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: false,
  },
}));
