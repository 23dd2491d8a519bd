/** What every part of the core is built with: its data folder's log and store, the clock, the settings, the bus. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../../shared/domain.js';
import { createLogger, type Logger } from '../../node/log/logger.js';
import { openStore, type Store } from '../store/index.js';
import { PruneScheduler } from '../store/prune-schedule.js';
import { logSlowReads } from '../store/slow-log.js';
import type { CorePushes } from './bus.js';

export interface CoreBasics {
  store: Store;
  now: () => number;
  /** Settings as the app runs with them (demo/env overrides applied, never saved). */
  effective: () => Settings;
  bus: CorePushes;
  logger: Logger;
}

/** The data folder, readable by the user only, and the core's log in it (null: none). */
export function openDataDir(o: { dataDir: string; logFile?: string | null; logLevel?: string }): {
  logFile: string | null;
  logger: Logger;
} {
  // The database, its WAL and the logs hold the user's data: readable by the user only.
  process.umask(0o077);
  mkdirSync(o.dataDir, { recursive: true });
  const logFile =
    o.logFile === null ? null : (o.logFile ?? join(o.dataDir, 'logs', 'macrobell.log'));
  const logger = createLogger({ file: logFile ?? undefined, level: o.logLevel ?? 'info' });
  return { logFile, logger };
}

/** The cache (demo data in its own file), its slow reads logged, pruned when idle. */
export function openCoreStore(o: {
  dataDir: string;
  demo: boolean;
  nativeBinding?: string;
  logger: Logger;
}): { store: Store; pruning: PruneScheduler } {
  const { logger } = o;
  const path = join(o.dataDir, o.demo ? 'demo.db' : 'macrobell.db');
  const store = logSlowReads(openStore({ path, nativeBinding: o.nativeBinding }), logger);
  // notifications_applied and tombstones would grow without bound: prune when idle.
  const pruning = new PruneScheduler({ store, logger }).start();
  return { store, pruning };
}
