/**
 * Runtime facts and recent errors for "Copy diagnostics" (getDiagnostics in service.ts).
 * Plain Node: versions come from `process.versions` (Electron's when running in it).
 * Nothing here reads a secret; the report is scrubbed of known secrets by the service too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { release, type as osType } from 'node:os';

export interface RuntimeInfo {
  app: string | null;
  platform: string;
  os: string;
  electron: string | null;
  chrome: string | null;
  node: string;
  /** NODE_MODULE_VERSION: the ABI native modules (better-sqlite3) must be built for. */
  abi: string;
}

export function runtimeInfo(appVersion?: string): RuntimeInfo {
  return {
    app: appVersion ?? null,
    platform: `${process.platform} ${process.arch}`,
    os: `${osType()} ${release()}`,
    electron: process.versions.electron ?? null,
    chrome: process.versions.chrome ?? null,
    node: process.versions.node,
    abi: process.versions.modules,
  };
}

export interface LoggedError {
  time: string;
  msg: string;
  error: string | null;
}

const ERROR_LEVEL = 50; // pino's "error"
const MAX_BYTES = 2 * 1024 * 1024;

/** The last `limit` error-level entries of these pino log files, oldest first. */
export function recentErrors(logFiles: readonly string[], limit = 20): LoggedError[] {
  const found: (LoggedError & { at: number })[] = [];
  for (const file of logFiles) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const line of text.slice(-MAX_BYTES).split('\n')) {
      if (!line.includes('"level":5') && !line.includes('"level":6')) continue;
      let entry: { level?: unknown; time?: unknown; msg?: unknown; err?: { message?: unknown } };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue;
      }
      if (typeof entry.level !== 'number' || entry.level < ERROR_LEVEL) continue;
      const at = typeof entry.time === 'number' ? entry.time : 0;
      found.push({
        at,
        time: new Date(at).toISOString(),
        msg: typeof entry.msg === 'string' ? entry.msg : '',
        error: typeof entry.err?.message === 'string' ? entry.err.message : null,
      });
    }
  }
  return found
    .sort((a, b) => a.at - b.at)
    .slice(-limit)
    .map(({ at: _at, ...e }) => e);
}
