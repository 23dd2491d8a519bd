/**
 * Electron's crash reporter, local only: minidumps of the main, renderer and GPU processes
 * go to app.getPath('crashDumps') and are never uploaded (no submitURL, uploadToServer
 * false). A user can attach them to a bug report themselves.
 */
import { app, crashReporter } from 'electron';

export function startCrashReporter(): string {
  crashReporter.start({ uploadToServer: false, productName: 'Macrobell', compress: true });
  return app.getPath('crashDumps');
}
