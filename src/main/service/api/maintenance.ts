/** The cache's size and clearing, and the diagnostics report (secrets scrubbed). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AppApi } from '../../../shared/ipc.js';
import { scrubSecrets } from '../../../node/log/logger.js';
import { recentErrors, runtimeInfo } from '../../diagnostics.js';
import type { ApiTableDeps } from './deps.js';

type MaintenanceDeps = Pick<
  ApiTableDeps,
  'dataDir' | 'logFile' | 'appVersion' | 'store' | 'sync' | 'status' | 'effective' | 'credentials'
>;

async function diagnostics(d: MaintenanceDeps): Promise<string> {
  // The log this core really writes (the configured file), and the shell's beside it.
  const { logFile, store, effective } = d;
  const logDir = logFile ? dirname(logFile) : join(d.dataDir, 'logs');
  const logTail =
    logFile && existsSync(logFile)
      ? readFileSync(logFile, 'utf8').split('\n').slice(-200).join('\n')
      : '';
  const report = {
    app: 'Macrobell',
    versions: runtimeInfo(d.appVersion),
    lastErrors: recentErrors([...(logFile ? [logFile] : []), join(logDir, 'shell.log')]),
    status: d.status.current(),
    settings: { ...effective(), relayUrl: effective().relayUrl ? '[configured]' : null },
    cache: { databaseBytes: store.sizeBytes(), ...store.counts() },
  };
  return scrubSecrets(
    `${JSON.stringify(report, null, 2)}\n\n--- recent log ---\n${logTail}`,
    await d.credentials.knownSecrets(),
  );
}

export function maintenanceApi(
  d: MaintenanceDeps,
): Pick<AppApi, 'syncNow' | 'getCacheInfo' | 'clearCache' | 'getDiagnostics'> {
  const { store } = d;
  const cacheInfo = () => {
    const { eventDates, posts } = store.counts();
    return { dataDir: d.dataDir, databaseBytes: store.sizeBytes(), eventDates, posts };
  };
  return {
    syncNow: async () => {
      await d.sync.backfill();
      return null;
    },
    getCacheInfo: async () => cacheInfo(),
    clearCache: async () => {
      store.clearCache();
      void d.sync.backfill();
      return cacheInfo();
    },
    getDiagnostics: () => diagnostics(d),
  };
}
