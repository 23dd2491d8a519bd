/**
 * Whether alerts get through: what the OS did with a notification, and the per-OS checks
 * (with a plain fix each) behind "Send test alert" in Settings.
 */

/**
 * What happened to one notification: `shown` (the OS took it), `failed` (the OS refused it),
 * `suppressed` (taken but known to be hidden: permission off, Focus, no daemon), `in-app`
 * (web mode: the window's own toast, no OS notification asked for).
 */
export type NotificationOutcome = 'shown' | 'failed' | 'suppressed' | 'in-app';

export interface NotificationCheck {
  /** Stable id (tests, the renderer's keys): e.g. `win-shortcut`, `linux-daemon`. */
  id: string;
  /** What was checked, in a few words. */
  label: string;
  /** true: fine; false: a problem; null: could not tell. */
  ok: boolean | null;
  /** When not ok: what it means for alerts, and what to do, in plain words. */
  fix?: string;
  /** A failing check of this kind hides notifications (the in-app banner stands in). */
  suppresses: boolean;
}

export interface TestAlertResult {
  outcome: NotificationOutcome;
  /** One sentence for the user: what the OS did with the test alert. */
  summary: string;
  checks: NotificationCheck[];
  /** True when the always-on-top in-app banner stood in for the OS notification. */
  banner: boolean;
}
