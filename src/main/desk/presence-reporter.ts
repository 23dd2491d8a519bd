/**
 * The desktop's side of presence: it names itself on the relay stream (headers: desktop
 * id, app version, OS) and reports the last event id it applied with `POST /presence` to
 * the node it streams from — after each applied batch (at most one request in flight;
 * batches applied meanwhile coalesce into the next) and every HEARTBEAT_MS while connected,
 * so the desk lead sees a live, lagging or silent desktop; each report also carries the
 * prints alerted today and how late (desk-alerts-today.ts), and when it applied its last
 * batches (desk-applied.ts: `relay log --user`). Failures are only logged: presence must
 * never hold up applying events.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import type { Logger } from 'pino';
import type { AlertsToday } from '../../shared/desk-alerts-today.js';
import { APPLIED_HISTORY_MAX, type AppliedHistory } from '../../shared/desk-applied.js';

export interface PresenceReporterOptions {
  token: () => Promise<string | null>;
  /** Kept per install, so the desk sees one row per machine across restarts. */
  desktopId: string;
  appVersion: string;
  os: string;
  /** The prints alerted today (from the alert receipts), sent with each report. */
  alertsToday?: () => AlertsToday | null;
  /** How often a connected desktop reports even when nothing new was applied. */
  everyMs?: number;
  /** How long one report may take before it is given up (default REPORT_TIMEOUT_MS). */
  reportTimeoutMs?: number;
  /** The clock of the applied times (default Date.now). */
  now?: () => number;
  logger?: Logger;
}

/** What the relay consumer calls (RelayConsumerOptions.presence). */
export interface PresenceHooks {
  headers(): Record<string, string>;
  connected(node: string, appliedId: string | null): void;
  applied(id: string): void;
  disconnected(): void;
}

/** The OS as a short name the relay accepts (letters, digits, spaces, . , ( ) + -). */
export function osLabel(platform: string, release: string): string {
  return `${platform} ${release}`.replace(/[^\w .,()+-]/g, '').slice(0, 64) || 'unknown';
}

const DESKTOP_ID_KEY = 'desk.desktopId';
/**
 * A connected desktop's heartbeat: a third of the relay's staleness (PRESENCE_STALE_MS,
 * 30 s), so two lost reports in a row still do not show it silent; any shorter wakes the
 * idle tray app for nothing (issue #37).
 */
export const HEARTBEAT_MS = 10_000;
/** How long a report may take (headers and body) before it is given up. */
const REPORT_TIMEOUT_MS = 10_000;

/** This install's desktop id: made once, then kept in the app's database. */
export function desktopId(state: {
  getSyncState(key: string): string | null;
  setSyncState(key: string, value: string): void;
}): string {
  const kept = state.getSyncState(DESKTOP_ID_KEY);
  if (kept && /^[A-Za-z0-9_-]{8,64}$/.test(kept)) return kept;
  const made = randomBytes(12).toString('base64url');
  state.setSyncState(DESKTOP_ID_KEY, made);
  return made;
}

export class PresenceReporter implements PresenceHooks {
  private node: string | null = null;
  private appliedId: string | null = null;
  private sentId: string | null = null;
  private inflight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failing = false;
  /**
   * The optional fields a relay still takes, newest last: one that refuses a report (400)
   * is older than the newest field, so it is dropped from then on.
   */
  private optional: ('alerts' | 'applied')[] = ['alerts', 'applied'];
  /** Checkpoints of applied batches, oldest first (at most APPLIED_HISTORY_MAX). */
  private readonly history: AppliedHistory = [];

  constructor(private readonly opts: PresenceReporterOptions) {}

  headers(): Record<string, string> {
    return {
      'x-macrobell-desktop': this.opts.desktopId,
      'x-macrobell-app-version': this.opts.appVersion.replace(/[^\w.+-]/g, '') || 'unknown',
      'x-macrobell-os': this.opts.os,
    };
  }

  connected(node: string, appliedId: string | null): void {
    this.node = node;
    this.appliedId = appliedId ?? this.appliedId ?? '0';
    // Everything up to the cursor was applied by now: the lower bound for what comes next.
    this.checkpoint(this.appliedId);
    this.sentId = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => this.send(true), this.opts.everyMs ?? HEARTBEAT_MS);
    this.timer.unref?.();
    this.send(false);
  }

  applied(id: string): void {
    this.appliedId = id;
    this.checkpoint(id);
    this.send(false);
  }

  private checkpoint(id: string): void {
    if (this.history.at(-1)?.id === id) return;
    this.history.push({ id, at: (this.opts.now ?? Date.now)() });
    if (this.history.length > APPLIED_HISTORY_MAX) this.history.shift();
  }

  disconnected(): void {
    this.node = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Resolves when no report is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inflight) await this.inflight;
  }

  private send(heartbeat: boolean): void {
    if (this.inflight || this.node === null || this.appliedId === null) return;
    if (!heartbeat && this.appliedId === this.sentId) return;
    const node = this.node;
    const appliedId = this.appliedId;
    this.inflight = this.post(node, appliedId).finally(() => {
      this.inflight = null;
      if (this.appliedId !== this.sentId) this.send(false);
    });
  }

  /** The optional fields of the report body that this relay takes. */
  private extras(): { alerts?: AlertsToday; applied?: AppliedHistory } {
    const applied = this.optional.includes('applied') ? { applied: [...this.history] } : {};
    return { ...applied, ...(this.optional.includes('alerts') ? this.alerts() : {}) };
  }

  /** `{alerts}` for the report body; nothing when it cannot be read (never holds a report up). */
  private alerts(): { alerts?: AlertsToday } {
    try {
      const today = this.opts.alertsToday?.();
      return today ? { alerts: today } : {};
    } catch (err) {
      this.opts.logger?.debug({ err }, 'alert receipts could not be summed up');
      return {};
    }
  }

  private async report(node: string, token: string, appliedId: string): Promise<number> {
    const extras = this.extras();
    // One native timer, cleared when the report is done: undici's own timeouts over a
    // second run its shared 499 ms tick, an extra wake-up after every heartbeat.
    const abort = new AbortController();
    const timeoutMs = this.opts.reportTimeoutMs ?? REPORT_TIMEOUT_MS;
    const timer = setTimeout(
      () => abort.abort(new Error(`the relay did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    timer.unref();
    let res;
    try {
      res = await request(`${node.replace(/\/+$/, '')}/presence`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ desktop: this.opts.desktopId, appliedId, ...extras }),
        signal: abort.signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      await res.body.dump();
    } finally {
      clearTimeout(timer);
    }
    const newest = this.optional.at(-1);
    if (res.statusCode !== 400 || newest === undefined || extras[newest] === undefined)
      return res.statusCode;
    // A relay from before that field refuses it: report without it from now on.
    this.optional.pop();
    return this.report(node, token, appliedId);
  }

  private async post(node: string, appliedId: string): Promise<void> {
    try {
      const token = await this.opts.token();
      if (!token) return;
      const status = await this.report(node, token, appliedId);
      if (status !== 204) throw new Error(`the relay answered HTTP ${status}`);
      this.sentId = appliedId;
      this.failing = false;
    } catch (err) {
      // Once per run of failures: an old relay without /presence answers 404 every time.
      if (!this.failing) this.opts.logger?.warn({ err }, 'presence report failed');
      this.failing = true;
      this.sentId = appliedId; // the heartbeat retries; no tight loop on a refusing relay
    }
  }
}
