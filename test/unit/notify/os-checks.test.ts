/** The per-OS notification checks: which facts hide alerts, and the plain fix for each. */
import { describe, expect, it } from 'vitest';
import {
  APP_USER_MODEL_ID,
  diagnose,
  needsBanner,
  summarize,
  suppressedBy,
  type OsNotificationFacts,
} from '../../../src/main/notify/os-checks.js';

const failing = (facts: OsNotificationFacts) =>
  diagnose(facts)
    .filter((c) => c.ok === false)
    .map((c) => c.id);

describe('notification checks', () => {
  it('Windows: a toast needs our AppUserModelID and a Start-menu shortcut carrying it', () => {
    const good = { platform: 'win32', supported: true, appUserModelId: APP_USER_MODEL_ID } as const;
    expect(failing({ ...good, shortcut: 'ok' })).toEqual([]);
    expect(failing({ ...good, shortcut: 'missing' })).toEqual(['win-shortcut']);
    expect(failing({ ...good, appUserModelId: null, shortcut: 'ok' })).toEqual(['win-aumid']);
    const wrong = diagnose({ ...good, shortcut: 'wrong-id' }).find((c) => c.id === 'win-shortcut');
    expect(wrong?.fix).toMatch(/another AppUserModelID.*Reinstall/);
    expect(suppressedBy(diagnose({ ...good, shortcut: 'missing' }))?.fix).toMatch(
      /Start-menu shortcut/,
    );
  });

  it('macOS: permission off or a Focus on hide alerts; unknown is not a failure', () => {
    const mac = { platform: 'darwin', supported: true } as const;
    expect(failing({ ...mac, permission: 'unknown', focus: 'unknown' })).toEqual([]);
    expect(failing({ ...mac, permission: 'denied', focus: 'on' })).toEqual([
      'mac-permission',
      'mac-focus',
    ]);
    const focus = diagnose({ ...mac, permission: 'granted', focus: 'on' });
    expect(suppressedBy(focus)?.fix).toMatch(/Focus.*Allowed Apps/);
    expect(focus.find((c) => c.id === 'mac-permission')).toMatchObject({ ok: true });
  });

  it('Linux: no daemon on D-Bus hides alerts; a missing desktop entry is a hint, listed after', () => {
    const linux = { platform: 'linux', supported: true } as const;
    expect(failing({ ...linux, daemon: 'activatable', desktopEntry: true })).toEqual([]);
    const checks = diagnose({ ...linux, daemon: 'absent', desktopEntry: false });
    expect(checks.map((c) => [c.id, c.ok])).toEqual([
      ['linux-daemon', false],
      ['linux-desktop-entry', false],
      ['supported', true],
    ]);
    expect(checks[0]?.fix).toMatch(/org\.freedesktop\.Notifications.*dunst/);
    expect(suppressedBy(diagnose({ ...linux, daemon: 'running', desktopEntry: false }))).toBe(
      undefined,
    );
  });

  it('says what the OS did, and the banner stands in unless it was shown', () => {
    const checks = diagnose({
      platform: 'linux',
      supported: true,
      daemon: 'absent',
      desktopEntry: true,
    });
    expect(summarize('suppressed', checks)).toMatch(
      /hides notifications \(failed: notification daemon on d-bus\).*banner/,
    );
    expect(summarize('failed', checks)).toMatch(/refused/);
    expect([needsBanner('shown'), needsBanner('failed'), needsBanner('suppressed')]).toEqual([
      false,
      true,
      true,
    ]);
    expect(failing({ platform: 'other', supported: false })).toEqual(['supported']);
  });
});
