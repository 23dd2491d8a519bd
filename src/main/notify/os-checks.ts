/**
 * Per-OS reasons a native notification never reaches the trader, each with a plain fix.
 * The hosts gather the facts (src/main/electron/notification-facts.ts); the judgement is
 * here, pure, so it is tested on every platform's facts from any machine.
 */
import type { NotificationCheck, NotificationOutcome } from '../../shared/domain.js';

/** What Windows needs for a toast: our AppUserModelID, and a Start-menu shortcut with it. */
export interface WindowsFacts {
  platform: 'win32';
  supported: boolean;
  /** The id the process set (null: none). */
  appUserModelId: string | null;
  /** The Start-menu shortcut: missing, present with another id, or fine. */
  shortcut: 'ok' | 'missing' | 'wrong-id' | 'unknown';
}

export interface MacFacts {
  platform: 'darwin';
  supported: boolean;
  /** Notification permission as last seen (macOS tells apps little: often unknown). */
  permission: 'granted' | 'denied' | 'unknown';
  /** A Focus (Do Not Disturb) is on. */
  focus: 'on' | 'off' | 'unknown';
}

export interface LinuxFacts {
  platform: 'linux';
  supported: boolean;
  /** org.freedesktop.Notifications on the session D-Bus: owned, D-Bus-activatable, or neither. */
  daemon: 'running' | 'activatable' | 'absent' | 'unknown';
  /** A macrobell.desktop in an XDG applications folder. */
  desktopEntry: boolean;
}

export type OsNotificationFacts =
  WindowsFacts | MacFacts | LinuxFacts | { platform: 'other'; supported: boolean };

export const APP_USER_MODEL_ID = 'app.macrobell.desktop';

const FIX = {
  unsupported:
    'This system offers no native notifications. Macrobell shows an always-on-top banner with sound instead.',
  aumid: `Windows drops toasts from an app without its AppUserModelID. Start Macrobell from its Start-menu shortcut (the installer sets ${APP_USER_MODEL_ID}); if it still fails, reinstall.`,
  shortcutMissing:
    'Windows shows toasts only for apps with a Start-menu shortcut. Reinstall Macrobell with its installer, which creates the shortcut (running from source has none).',
  shortcutWrongId: `The Start-menu shortcut carries another AppUserModelID, so Windows drops the toasts. Reinstall Macrobell to recreate the shortcut with ${APP_USER_MODEL_ID}.`,
  macPermission:
    'macOS does not allow Macrobell to notify. Open System Settings → Notifications → Macrobell and turn on "Allow notifications" (style: Alerts keeps them on screen).',
  macFocus:
    "A Focus (Do Not Disturb) is on, so macOS holds notifications silently. Add Macrobell to the Focus's allowed apps (System Settings → Focus → your Focus → Allowed Apps), or turn the Focus off.",
  linuxDaemon:
    "No notification daemon answers on the session D-Bus (org.freedesktop.Notifications), so nothing can show. Start your desktop's notification service, or install one (e.g. `sudo apt install dunst`) and log in again.",
  linuxDesktop:
    "No macrobell.desktop in ~/.local/share/applications or /usr/share/applications: GNOME and KDE may hide Macrobell's notifications and list no setting for them. Install the .deb, or let the AppImage integrate itself.",
} as const;

const check = (
  id: string,
  label: string,
  ok: boolean | null,
  fix: string,
  suppresses: boolean,
): NotificationCheck => ({ id, label, ok, suppresses, ...(ok === true ? {} : { fix }) });

/** Every check for this OS, problems first (the ones that hide notifications before hints). */
export function diagnose(facts: OsNotificationFacts): NotificationCheck[] {
  const checks = [
    check('supported', 'Native notifications available', facts.supported, FIX.unsupported, true),
    ...platformChecks(facts),
  ];
  const rank = (c: NotificationCheck) => (c.ok === false ? (c.suppresses ? 0 : 1) : 2);
  return checks.sort((a, b) => rank(a) - rank(b));
}

function platformChecks(facts: OsNotificationFacts): NotificationCheck[] {
  switch (facts.platform) {
    case 'win32':
      return [
        check(
          'win-aumid',
          'AppUserModelID set',
          facts.appUserModelId === APP_USER_MODEL_ID,
          FIX.aumid,
          true,
        ),
        check(
          'win-shortcut',
          'Start-menu shortcut with the same id',
          facts.shortcut === 'unknown' ? null : facts.shortcut === 'ok',
          facts.shortcut === 'wrong-id' ? FIX.shortcutWrongId : FIX.shortcutMissing,
          true,
        ),
      ];
    case 'darwin':
      return [
        check(
          'mac-permission',
          'Notifications allowed',
          known(facts.permission, 'granted', 'denied'),
          FIX.macPermission,
          true,
        ),
        check(
          'mac-focus',
          'No Focus holding notifications',
          known(facts.focus, 'off', 'on'),
          FIX.macFocus,
          true,
        ),
      ];
    case 'linux':
      return [
        check(
          'linux-daemon',
          'Notification daemon on D-Bus',
          facts.daemon === 'unknown' ? null : facts.daemon !== 'absent',
          FIX.linuxDaemon,
          true,
        ),
        check(
          'linux-desktop-entry',
          'Desktop entry installed',
          facts.desktopEntry,
          FIX.linuxDesktop,
          false,
        ),
      ];
    default:
      return [];
  }
}

function known<T extends string>(value: T | 'unknown', good: T, bad: T): boolean | null {
  if (value === good) return true;
  return value === bad ? false : null;
}

/** A check that hides notifications has failed: the OS will not show them. */
export function suppressedBy(checks: NotificationCheck[]): NotificationCheck | undefined {
  return checks.find((c) => c.suppresses && c.ok === false);
}

/** The always-on-top banner stands in whenever the OS notification did not get through. */
export function needsBanner(outcome: NotificationOutcome): boolean {
  return outcome === 'failed' || outcome === 'suppressed';
}

/** What the OS did, in one sentence for Settings. */
export function summarize(outcome: NotificationOutcome, checks: NotificationCheck[]): string {
  switch (outcome) {
    case 'shown':
      return 'The OS took the test alert and shows it. If you did not see it, look at the checks below.';
    case 'failed':
      return 'The OS refused the test alert. Alerts show as an always-on-top banner with sound until this is fixed.';
    case 'suppressed': {
      const why = suppressedBy(checks)?.label.toLowerCase();
      return `The OS hides notifications${why ? ` (failed: ${why})` : ''}. Alerts show as an always-on-top banner with sound until this is fixed.`;
    }
    case 'in-app':
      return 'Shown in this window with its sound.';
  }
}
