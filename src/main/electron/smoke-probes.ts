/** The smoke test's probes on the running shell (see smoke-test.ts for the runner). */
import { Notification, type BrowserWindow } from 'electron';
import { KeytarSecretStore, type SecretStore } from '../secrets/index.js';
import type { SmokeProbes } from './smoke-test.js';

/** Evaluated in the page: what the user sees, and whether the preload bridge is there. */
const PAGE_PROBE = `(() => ({
  bridge: typeof window.macrobell === 'object' && typeof window.macrobell.invoke === 'function',
  rows: document.querySelectorAll('[data-testid="event-row"]').length,
}))()`;

export const CALENDAR_POLL_MS = 250;

export interface ProbeTargets {
  window: () => BrowserWindow | null;
  trayExists: () => boolean;
  /** The Electron build of better-sqlite3 (undefined: not found). */
  nativeBinding: string | undefined;
  packaged: boolean;
  /** The OS keychain (default: keytar under a name nothing is stored in; the probe only reads). */
  keychain?: Pick<SecretStore, 'available'>;
  pollMs?: number;
}

export function electronProbes(t: ProbeTargets): SmokeProbes {
  return {
    async calendar() {
      for (;;) {
        const win = t.window();
        if (win && !win.isDestroyed() && !win.webContents.isLoading()) {
          const seen = (await win.webContents.executeJavaScript(PAGE_PROBE)) as {
            bridge: boolean;
            rows: number;
          };
          if (!seen.bridge) throw new Error('the preload bridge (window.macrobell) is missing');
          if (seen.rows > 0) return { rows: seen.rows };
        }
        await new Promise((r) => setTimeout(r, t.pollMs ?? CALENDAR_POLL_MS));
      }
    },
    async sqlite() {
      if (t.packaged && !t.nativeBinding)
        throw new Error('the Electron build of better-sqlite3 is missing from the package');
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(
        ':memory:',
        t.nativeBinding ? { nativeBinding: t.nativeBinding } : {},
      );
      try {
        const version = db.prepare('select sqlite_version()').pluck().get() as string;
        return {
          sqlite: version,
          abi: process.versions.modules,
          electronBuild: Boolean(t.nativeBinding),
        };
      } finally {
        db.close();
      }
    },
    async keychain() {
      const store = t.keychain ?? new KeytarSecretStore({ service: 'Macrobell-smoke-test' });
      const answer = await store.available();
      if (!answer.ok) throw new Error(answer.error ?? 'the keychain did not answer');
      return {};
    },
    async tray() {
      if (!t.trayExists()) throw new Error('no tray icon');
      return {};
    },
    async notification() {
      if (!Notification.isSupported())
        throw new Error('this desktop has no notification service (libnotify on Linux)');
      // Created, not shown: a CI desktop has no one to read it.
      new Notification({ title: 'Macrobell smoke test', body: 'ok', silent: true });
      return {};
    },
  };
}
