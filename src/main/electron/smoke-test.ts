/**
 * `macrobell --smoke-test`: the packaged app proves it works on a real OS. The shell starts
 * on demo data in a throw-away data folder; the probes (smoke-probes.ts) look at what a
 * user would see; this module runs them under one deadline and writes one JSON line.
 * Plain logic, no `electron` import, so it is tested as is.
 */
import { messageOf } from '../../shared/error-message.js';
export const SMOKE_FLAG = '--smoke-test';
export const SMOKE_OUTPUT_FLAG = '--smoke-output=';
export const SMOKE_TIMEOUT_MS = 60_000;

export interface SmokeOptions {
  /** Also write the report here (a GUI app's stdout is not always a console on Windows). */
  outputFile: string | null;
}

/** The smoke-test options when the flag is on the command line, else null. */
export function parseSmokeArgs(argv: readonly string[]): SmokeOptions | null {
  if (!argv.includes(SMOKE_FLAG)) return null;
  const out = argv.find((a) => a.startsWith(SMOKE_OUTPUT_FLAG));
  return { outputFile: out?.slice(SMOKE_OUTPUT_FLAG.length) || null };
}

/** One finding; `ok: false` carries the reason. Extra fields say what was seen. */
export type CheckResult = { ok: boolean; reason?: string } & Record<string, unknown>;

/** What the smoke test looks at, each resolving with what it saw (or throwing why not). */
export interface SmokeProbes {
  /** Waits until the renderer has drawn calendar rows it got through the preload bridge. */
  calendar(): Promise<Record<string, unknown>>;
  /** better-sqlite3 loaded in Electron's ABI (the build shipped for it). */
  sqlite(): Promise<Record<string, unknown>>;
  /** The OS keychain answered a read. */
  keychain(): Promise<Record<string, unknown>>;
  /** The tray icon exists. */
  tray(): Promise<Record<string, unknown>>;
  /** A native notification could be created. */
  notification(): Promise<Record<string, unknown>>;
}

export const CHECKS = ['calendar', 'sqlite', 'keychain', 'tray', 'notification'] as const;
export type CheckName = (typeof CHECKS)[number];

export interface SmokeReport {
  ok: boolean;
  /** The first failure, in words; absent when ok. */
  reason?: string;
  elapsedMs: number;
  versions: Record<string, string | undefined>;
  checks: Partial<Record<CheckName, CheckResult>>;
}

export interface SmokeRunOptions {
  timeoutMs?: number;
  now?: () => number;
  versions?: Record<string, string | undefined>;
}

/**
 * Start the app (`start` resolves with its probes), run every probe, and report. Never
 * throws and never takes longer than the timeout: a hung start or probe is reported by name.
 */
export async function runSmokeChecks(
  start: () => Promise<SmokeProbes>,
  opts: SmokeRunOptions = {},
): Promise<SmokeReport> {
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? SMOKE_TIMEOUT_MS;
  const began = now();
  const checks: SmokeReport['checks'] = {};
  const pending = new Set<string>(['start']);
  const report = (reason?: string): SmokeReport => {
    const failed = CHECKS.find((c) => checks[c] && !checks[c].ok);
    const why = reason ?? (failed ? `${failed}: ${checks[failed]?.reason}` : undefined);
    return {
      ok: !why,
      ...(why ? { reason: why } : {}),
      elapsedMs: now() - began,
      versions: opts.versions ?? {},
      checks,
    };
  };

  const work = (async () => {
    let probes: SmokeProbes;
    try {
      probes = await start();
    } catch (err) {
      return report(`the app did not start: ${messageOf(err)}`);
    }
    pending.delete('start');
    CHECKS.forEach((c) => pending.add(c));
    await Promise.all(
      CHECKS.map(async (name) => {
        try {
          checks[name] = { ok: true, ...(await probes[name]()) };
        } catch (err) {
          checks[name] = { ok: false, reason: messageOf(err) };
        }
        pending.delete(name);
      }),
    );
    return report();
  })();

  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<SmokeReport>((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          report(
            `timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${[...pending].join(', ')}`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
