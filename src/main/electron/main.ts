/** Electron main entry (electron-vite builds it to out/main/index.js). */
import { app, dialog } from 'electron';
import { runShell } from './app.js';
import { runSmokeTest } from './smoke-run.js';
import { parseSmokeArgs } from './smoke-test.js';
import { messageOf } from '../../shared/error-message.js';

function explain(err: unknown): string {
  const message = messageOf(err);
  // better-sqlite3 built for Node instead of Electron: say how to fix it.
  if (/NODE_MODULE_VERSION|better_sqlite3\.node/.test(message))
    return `${message}\n\nThe SQLite module is not built for Electron. Run \`node scripts/electron-native.mjs\` (npm start does this for you).`;
  return message;
}

const devServerUrl = process.env.ELECTRON_RENDERER_URL;
const smoke = parseSmokeArgs(process.argv);
if (smoke) {
  // No dialogs: the smoke test answers with its JSON line and exit code only.
  void runSmokeTest(smoke, { devServerUrl }).then(
    ({ code }) => app.exit(code),
    (err: unknown) => {
      process.stdout.write(`${JSON.stringify({ ok: false, reason: String(err) })}\n`);
      app.exit(1);
    },
  );
} else {
  runShell({ devServerUrl }).catch((err: unknown) => {
    dialog.showErrorBox('Macrobell could not start', explain(err));
    app.exit(1);
  });
}
