/** The tray counts down to the next news window (title beside the icon, and the tooltip). */
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { eventDate, fakeService, until } from './fake-service.js';
import { AppTray } from '../../../src/main/electron/tray.js';
import { DEFAULT_NEWS_WINDOW } from '../../../src/shared/news-windows.js';
import { DEFAULT_SETTINGS } from '../../../src/shared/domain.js';

beforeEach(() => fake.resetFakeElectron());

const T0 = Date.parse('2026-12-04T13:30:00Z');
const MIN = 60_000;

/** A clock the test moves; the countdown's 1-second tick is called by hand. */
function manualClock(start: number) {
  let tick: (() => void) | null = null;
  const clock = {
    t: start,
    now: () => clock.t,
    setInterval: (fn: () => void) => (tick = fn),
    clearInterval: vi.fn(),
    advance(ms: number) {
      clock.t += ms;
      tick?.();
    },
  };
  return clock;
}

function started(newsWindow = { ...DEFAULT_NEWS_WINDOW, enabled: true }) {
  const listed: unknown[] = [];
  const svc = fakeService({
    getSettings: async () => ({ ...DEFAULT_SETTINGS, newsWindow }),
    listEventDates: async (q) => {
      listed.push(q);
      return [
        eventDate({ id: 'nfp', name: 'Nonfarm Payrolls', dateUtc: new Date(T0).toISOString() }),
      ];
    },
  });
  const clock = manualClock(T0 - 107 * MIN);
  const noop = {
    open: vi.fn(),
    settings: vi.fn(),
    openEvent: vi.fn(),
    pause: vi.fn(),
    toggleStartAtLogin: vi.fn(),
    quit: vi.fn(),
  };
  const tray = new AppTray(svc, '/assets', noop, () => false, 'darwin', clock);
  return { tray, clock, listed, icon: () => fake.Tray.instances[0] as fake.Tray };
}

describe('news-window countdown in the tray', () => {
  it('counts down to the window, then the time left in it, then clears', async () => {
    const { tray, clock, icon, listed } = started();
    await until(() => icon().title !== '', 'the countdown');
    expect(icon().title).toBe('US NFP in 1:45');
    expect(icon().tooltip).toMatch(/^Macrobell — News window: US NFP in 1:45/);
    expect(listed[0]).toMatchObject({ volatilities: ['HIGH'] });

    clock.advance(104 * MIN + 20_000);
    expect(icon().title).toBe('US NFP in 40s');
    clock.advance(40_000);
    expect(icon().title).toBe('US NFP window · 4m left');
    expect(icon().tooltip).toContain('News window: US NFP window · 4m left');
    clock.advance(4 * MIN);
    expect(icon().title).toBe('');
    expect(icon().tooltip).not.toContain('News window');
    tray.destroy();
    expect(clock.clearInterval).toHaveBeenCalled();
  });

  it('shows nothing while the mode is off', async () => {
    const { tray, icon, listed } = started(DEFAULT_NEWS_WINDOW);
    await until(() => icon().tooltip !== '', 'the tooltip');
    await new Promise((r) => setImmediate(r));
    expect(icon().title).toBe('');
    expect(listed).toEqual([]);
    tray.destroy();
  });
});
