/**
 * Auto-update policy around electron-updater (updater.ts wires the real one): check at
 * start and every few hours, download in the background, then offer "Restart to update".
 * The app restarts by itself only when the update has waited a day, the window is not in
 * use and no watched release is due within 15 minutes — a trader never loses the app at
 * the print. Plain logic over a small port, so it is tested against a real update feed.
 */
import type { UpdateNotice } from '../../shared/ipc.js';
import { releaseNotesText } from './release-notes.js';

export const CHECK_INTERVAL_MS = 4 * 3_600_000;
export const FIRST_CHECK_DELAY_MS = 10_000;
/** No automatic restart while a watched release is due this soon. */
export const WATCHED_RELEASE_GUARD_MS = 15 * 60_000;
/** An update downloaded this long ago may restart the app by itself (when idle). */
export const AUTO_RESTART_AFTER_MS = 24 * 3_600_000;

/** What the controller needs of electron-updater's AppUpdater. */
export interface UpdaterPort {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<unknown>; // resolves with { downloadPromise? } or null
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

interface UpdateInfoLike {
  version: string;
  releaseName?: string | null;
  releaseNotes?: string | { version: string; note: string | null }[] | null;
}

export interface UpdateControllerDeps {
  /** Made on first use: electron-updater's needs a packaged app, which `enabled` checks first. */
  updater: () => UpdaterPort;
  /** Whether updates apply now (off in demo mode, from source…), with the reason if not. */
  enabled(): { on: true } | { on: false; reason: string };
  /** The first watched release due within `ms`, if any (its name, for the log). */
  watchedReleaseDueWithin(ms: number): Promise<string | null>;
  /** True while the user has the window open and focused. */
  windowInUse(): boolean;
  /** Every state change: the tray item and the in-app notice follow it. */
  onNotice(n: UpdateNotice): void;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  now?: () => number;
}

export type RestartDecision = { restart: true } | { restart: false; reason: string };

/** May the app restart by itself now to apply a downloaded update? */
export function autoRestartDecision(opts: {
  readySince: number;
  now: number;
  windowInUse: boolean;
  dueRelease: string | null;
}): RestartDecision {
  if (opts.now - opts.readySince < AUTO_RESTART_AFTER_MS)
    return { restart: false, reason: 'waiting for the user' };
  if (opts.windowInUse) return { restart: false, reason: 'the window is in use' };
  if (opts.dueRelease)
    return { restart: false, reason: `a watched release is due soon: ${opts.dueRelease}` };
  return { restart: true };
}

export class UpdateController {
  private notice: UpdateNotice = { phase: 'idle' };
  private readySince: number | null = null;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private checking: Promise<void> | null = null;
  private installing = false;
  private readonly now: () => number;

  private port: UpdaterPort | null = null;

  constructor(private readonly deps: UpdateControllerDeps) {
    this.now = deps.now ?? Date.now;
  }

  private updater(): UpdaterPort {
    if (this.port) return this.port;
    const u = (this.port = this.deps.updater());
    u.autoDownload = true; // in the background, as soon as one is found
    // The shell's own quit path calls installOnQuit() once the database is closed.
    u.autoInstallOnAppQuit = false;
    u.on('update-available', ((info: UpdateInfoLike) =>
      this.set({ phase: 'downloading', version: info.version, percent: 0 })) as never);
    u.on('download-progress', ((p: { percent: number }) => {
      if (this.notice.phase === 'downloading')
        this.set({ ...this.notice, percent: Math.round(p.percent) });
    }) as never);
    u.on('update-downloaded', ((info: UpdateInfoLike) => {
      this.readySince = this.now();
      this.set({
        phase: 'ready',
        version: info.version,
        releaseName: info.releaseName ?? null,
        releaseNotes: releaseNotesText(info.releaseNotes),
      });
    }) as never);
    u.on('error', ((err: Error) => {
      // A failed check or download is retried at the next check; the user is not bothered.
      this.deps.log?.('update failed', { err });
      if (this.notice.phase !== 'ready') this.set({ phase: 'idle' });
    }) as never);
    return u;
  }

  current(): UpdateNotice {
    return this.notice;
  }

  private set(n: UpdateNotice): void {
    this.notice = n;
    this.deps.onNotice(n);
  }

  /** Check soon after start, then every few hours (each tick may also auto-restart). */
  start(): void {
    const tick = () => void this.tick();
    this.timers.push(setTimeout(tick, FIRST_CHECK_DELAY_MS));
    const every = setInterval(tick, CHECK_INTERVAL_MS);
    every.unref?.();
    this.timers.push(every);
  }

  stop(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.timers = [];
  }

  async tick(): Promise<void> {
    if (this.notice.phase === 'ready') await this.maybeAutoRestart();
    else await this.check();
  }

  /** One check (never two at once); resolves when the check (not the download) is done. */
  check(): Promise<void> {
    const on = this.deps.enabled();
    if (!on.on) {
      this.deps.log?.('update check skipped', { reason: on.reason });
      return Promise.resolve();
    }
    this.checking ??= this.updater()
      .checkForUpdates()
      .then((result) => {
        // The background download reports failures through 'error' (logged above); its
        // promise must not also reject unhandled.
        const download = (result as { downloadPromise?: Promise<unknown> } | null)?.downloadPromise;
        download?.catch(() => undefined);
      })
      .catch((err: unknown) => this.deps.log?.('update check failed', { err }))
      .finally(() => (this.checking = null));
    return this.checking;
  }

  /** The user chose "Restart to update". */
  restartNow(): boolean {
    return this.install(false, true);
  }

  /** The app is quitting anyway: apply a waiting update silently, without relaunching. */
  installOnQuit(): boolean {
    return this.install(true, false);
  }

  private install(silent: boolean, relaunch: boolean): boolean {
    if (this.notice.phase !== 'ready' || this.installing) return false;
    this.installing = true;
    this.stop();
    this.updater().quitAndInstall(silent, relaunch);
    return true;
  }

  /** Restart by itself when the policy allows; returns what it decided. */
  async maybeAutoRestart(): Promise<RestartDecision> {
    if (this.notice.phase !== 'ready' || this.readySince === null)
      return { restart: false, reason: 'no update ready' };
    const decision = autoRestartDecision({
      readySince: this.readySince,
      now: this.now(),
      windowInUse: this.deps.windowInUse(),
      dueRelease: await this.deps
        .watchedReleaseDueWithin(WATCHED_RELEASE_GUARD_MS)
        .catch(() => 'unknown (the calendar could not be read)'),
    });
    if (decision.restart) this.install(true, true);
    else this.deps.log?.('automatic restart postponed', { reason: decision.reason });
    return decision;
  }
}
