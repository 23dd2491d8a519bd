/** Electron main entry (electron-vite builds it to out/main/index.js). */
import { app, dialog } from 'electron';
import { runShell } from './app.js';

runShell({ devServerUrl: process.env.ELECTRON_RENDERER_URL }).catch((err: unknown) => {
  dialog.showErrorBox(
    'Macrobell could not start',
    err instanceof Error ? err.message : String(err),
  );
  app.exit(1);
});
