/**
 * Native notifications with an answer: what the OS did with each (shown / failed /
 * suppressed), and the always-on-top in-app banner with sound whenever it did not get
 * through, so a HIGH print is never silent. The judgement is the core's (notify/os-checks).
 */
import type {
  NativeNotification,
  NotificationCheck,
  NotificationOutcome,
  TestAlertResult,
} from '../../shared/domain.js';
import {
  diagnose,
  needsBanner,
  summarize,
  suppressedBy,
  type OsNotificationFacts,
} from '../notify/os-checks.js';
import { showNotification } from './notifications.js';

export interface NativeAlertsOptions {
  /** A click on a notification: bring the window forward on its target. */
  open(target: NativeNotification['target']): void;
  icon?: string;
  /** The OS facts the checks judge (gathered again for each test alert). */
  facts(): Promise<OsNotificationFacts>;
  /** The window shows `n` as the banner, on top of everything. */
  banner(n: NativeNotification): void;
  /** Some OSes never answer: after this long without 'failed', the OS took it. */
  confirmMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (t: unknown) => void;
  onError?: (err: unknown) => void;
}

export class NativeAlerts {
  private checks: NotificationCheck[] = [];
  private lastTest: Promise<NotificationOutcome> | null = null;

  constructor(private readonly o: NativeAlertsOptions) {}

  /** Gathers the OS facts again; the last checks stand if that fails. */
  async refreshChecks(): Promise<NotificationCheck[]> {
    try {
      this.checks = diagnose(await this.o.facts());
    } catch (err) {
      this.o.onError?.(err);
    }
    return this.checks;
  }

  /** Shows `n`; resolves with what the OS did (and has put up the banner if needed). */
  deliver(n: NativeNotification): Promise<NotificationOutcome> {
    const outcome = this.attempt(n).then((o) => {
      if (needsBanner(o)) this.o.banner(n);
      return o;
    });
    if (n.test) this.lastTest = outcome;
    return outcome;
  }

  /** "Send test alert": fresh checks, then `send` raises it through the real path. */
  async test(send: () => Promise<unknown>): Promise<TestAlertResult> {
    const checks = await this.refreshChecks();
    this.lastTest = null;
    await send();
    // The core emits synchronously to deliver(); no test seen means nothing was delivered.
    const outcome = await (this.lastTest ?? Promise.resolve<NotificationOutcome>('failed'));
    return { outcome, summary: summarize(outcome, checks), checks, banner: needsBanner(outcome) };
  }

  private attempt(n: NativeNotification): Promise<NotificationOutcome> {
    const set = this.o.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    const clear = this.o.clearTimeout ?? ((t) => clearTimeout(t as NodeJS.Timeout));
    // Shown or not, the OS is known to hide it: the banner must stand in.
    const taken: NotificationOutcome = suppressedBy(this.checks) ? 'suppressed' : 'shown';
    return new Promise((resolve) => {
      let timer: unknown = null;
      let settled = false;
      const finish = (o: NotificationOutcome) => {
        if (settled) return;
        settled = true;
        if (timer !== null) clear(timer);
        resolve(o);
      };
      let shown = false;
      try {
        shown = showNotification(
          n,
          (t) => this.o.open(t),
          this.o.icon,
          (r) => finish(r.shown ? taken : 'failed'),
        );
      } catch (err) {
        this.o.onError?.(err);
      }
      if (!shown) return finish('failed');
      if (!settled) timer = set(() => finish(taken), this.o.confirmMs ?? 3_000);
    });
  }
}
