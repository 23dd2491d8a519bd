import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { noInlineRefreshPreamble } from './src/renderer/dev-preamble.js';

// The renderer, built once for both hosts: the Electron window (loadFile) and web mode.
export default defineConfig({
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  plugins: [react(), noInlineRefreshPreamble()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: false,
  },
});
