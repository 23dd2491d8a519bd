// @clock any-moment — it makes the releases it needs relative to now (the demo only lends an event id)
/**
 * One alert, one delivery — counted through the desktop shell on the REAL core behind the
 * REAL mode switch (what `loadService` gives the shell: auto mode, demo data from the
 * embedded simulator), with only `electron` faked. Each kind of alert must reach the
 * trader exactly once: one native notification, one `notification` push to the window
 * (its toast and its one sound), one alert row (one `alert` push) when it is recorded.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { runShell, type Shell } from '../../../src/main/electron/app.js';
import { createModeSwitchingService } from '../../../src/main/mode-switch.js';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { IPC_REQUEST_CHANNEL, ipcPushChannel, type PushEvent } from '../../../src/shared/ipc.js';
import type { AlertRecord, EventDate, NativeNotification } from '../../../src/shared/domain.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { simJson } from '../../integration/core/harness.js';
import { waitFor } from '../../support/wait.js';

const loginItemEnv = { platform: 'darwin' as const, configDir: '/nonexistent', command: '/x' };
const MINUTE = 60_000;

let shell: Shell | null = null;
beforeEach(() => fake.resetFakeElectron());
afterEach(async () => {
  await shell?.service.stop();
  shell = null;
});

/** The shell on the real mode-switching core; `ahead` moves the app's clock (a wake, later). */
async function started(window: { acknowledges: boolean } = { acknowledges: true }) {
  const clock = { ahead: 0 };
  let core: AppService | null = null;
  shell = await runShell({
    createService: async (opts) => {
      core = await createModeSwitchingService(createAppService, {
        ...opts,
        dataDir: mkdtempSync(join(tmpdir(), 'mb-once-')),
        secretStore: new MemorySecretStore(),
        logFile: null,
        logLevel: 'silent',
        now: () => Date.now() + clock.ahead,
        demo: { autoplay: false, seed: 21 },
      });
      return core;
    },
    loginItemEnv,
    argv: ['/opt/Macrobell/macrobell'],
    trayHost: async () => 'present',
    notificationFacts: async () => ({ platform: 'other', supported: true }),
    notificationConfirmMs: 20,
  });
  if (!shell || !core) throw new Error('the shell did not start');
  const service: AppService = core;
  expect(service.demo).toBe(true); // auto mode without keys: the demo, through the switch
  const win = fake.BrowserWindow.instances[0] as fake.BrowserWindow;
  win.emit('ready-to-show');
  win.webContents.finishLoad();
  win.userClose(); // in the tray, as during a trading day
  const sim = { url: service.simulatorUrl } as RunningSimulator;
  const pushes = <E extends PushEvent>(event: E) =>
    win.webContents.sent.filter(([ch]) => ch === ipcPushChannel(event)).map(([, p]) => p);
  const invoke = async (method: string, input?: unknown) => {
    const handler = fake.ipcMain.handlers.get(IPC_REQUEST_CHANNEL);
    const event = { sender: win.webContents, senderFrame: { url: 'app://macrobell/index.html' } };
    return (await handler?.(event, method, input)) as { ok: boolean; value: unknown };
  };
  // The renderer: its toast acknowledges each notification it is sent (alertShown over IPC).
  const send = win.webContents.send.bind(win.webContents);
  win.webContents.send = (channel: string, payload: unknown) => {
    send(channel, payload);
    const id = (payload as NativeNotification).deliveryId;
    if (window.acknowledges && channel === ipcPushChannel('notification') && id)
      void invoke('alertShown', { id, surface: 'toast', at: Date.now() });
  };
  return { service, sim, win, clock, pushes, invoke };
}

type Started = Awaited<ReturnType<typeof started>>;

/** Everything one alert produced, by a part of its text. */
function delivered(s: Started, text: string) {
  const about = (n: NativeNotification) => n.title.includes(text) || n.body.includes(text);
  return {
    native: fake.Notification.shown.filter(
      (n) => n.options.title.includes(text) || n.options.body.includes(text),
    ),
    toasts: (s.pushes('notification') as NativeNotification[]).filter(about),
    rows: (s.pushes('alert') as AlertRecord[]).filter((a) => a.title.includes(text)),
  };
}

/**
 * A duplicate has no signal of its own: once the first delivery is in, wait past what
 * could still repeat it (the confirming fetch after a webhook, 500 ms; the grouping
 * window), then count.
 */
const pastRepeats = () => new Promise((r) => setTimeout(r, 2_000));

async function createRelease(s: Started, inMs: number, name: string): Promise<EventDate> {
  const all = await simJson<EventDate[]>(s.sim, 'GET', '/_sim/event-dates');
  const ed = await simJson<EventDate>(s.sim, 'POST', '/_sim/event-dates', {
    eventId: (all[0] as EventDate).eventId,
    dateUtc: new Date(Date.now() + inMs).toISOString(),
    volatility: 'HIGH',
    name,
  });
  const day = (ms: number) => new Date(ms).toISOString();
  await waitFor(
    async () =>
      (
        await s.service.api.listEventDates({
          from: day(Date.now() - 86_400_000),
          to: day(Date.now() + 86_400_000),
        })
      ).some((d) => d.id === ed.id),
    'the app to know the release',
  );
  return ed;
}

async function printAtItsTime(s: Started, ed: EventDate, actual: number): Promise<void> {
  await waitFor(() => Date.now() >= Date.parse(ed.dateUtc), 'the release time', 30_000);
  await simJson(s.sim, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual });
}

describe('exactly once, through the real mode switch', () => {
  it('a print: one native notification, one toast with its sound, one alert row', async () => {
    const s = await started();
    const ed = await createRelease(s, 1_500, 'Exactly Once Payrolls');
    await printAtItsTime(s, ed, 275);
    await waitFor(() => delivered(s, 'Exactly Once Payrolls').native.length > 0, 'the alert');
    await pastRepeats();
    const d = delivered(s, 'Exactly Once Payrolls');
    expect(d.native).toHaveLength(1);
    expect(d.toasts).toHaveLength(1);
    expect(d.toasts[0]?.silent).toBe(false); // its one sound, played by the window
    expect(d.rows).toHaveLength(1);
    const history = (await s.service.api.listAlerts({ limit: 50 })).filter(
      (a) => a.target.type === 'eventDate' && a.target.eventDateId === ed.id,
    );
    expect(history).toHaveLength(1);
  });

  it('a print the window acknowledges: its receipt names the toast, no fallback', async () => {
    const s = await started();
    const ed = await createRelease(s, 1_500, 'Acknowledged Payrolls');
    await printAtItsTime(s, ed, 275);
    await waitFor(() => delivered(s, 'Acknowledged Payrolls').native.length > 0, 'the alert');
    await pastRepeats();
    expect(s.pushes('fallback')).toEqual([]);
    expect(s.win.flashing).toBe(false);
    const [row] = (await s.service.api.listAlerts({ limit: 50 })).filter(
      (a) => a.target.type === 'eventDate' && a.target.eventDateId === ed.id,
    );
    expect(row?.receipt).toMatchObject({ shownBy: 'toast' });
    expect(row?.receipt?.fallbackAt).toBeUndefined();
  });

  it('a window that acknowledges nothing: the OS notification again with its sound, the taskbar, and the receipt says so', async () => {
    const s = await started({ acknowledges: false });
    fake.Notification.answer = 'show';
    const ed = await createRelease(s, 1_500, 'Unseen Payrolls');
    await printAtItsTime(s, ed, 275);
    await waitFor(() => s.pushes('fallback').length > 0, 'the fallback', 10_000);
    await pastRepeats();
    expect((s.pushes('fallback') as NativeNotification[]).map((n) => n.title)).toEqual([
      expect.stringContaining('Unseen Payrolls'),
    ]);
    const native = delivered(s, 'Unseen Payrolls').native;
    // the first, silent (the window was to play the sound); the fallback with the OS's sound
    expect(native.map((n) => n.options.silent)).toEqual([true, false]);
    // the second replaces the first on screen: one notification of it at a time
    expect(native.map((n) => n.closed)).toEqual([true, false]);
    expect(s.win.flashing).toBe(true);
    const [row] = (await s.service.api.listAlerts({ limit: 50 })).filter(
      (a) => a.target.type === 'eventDate' && a.target.eventDateId === ed.id,
    );
    const r = row?.receipt;
    expect(r).toMatchObject({ shownBy: 'native-notification' });
    expect(r?.fallbackAt).toEqual(expect.any(Number));
    expect(r?.shownAt).toBeGreaterThanOrEqual(r?.fallbackAt as number);
    expect((r?.fallbackAt as number) - (r?.sentAt as number)).toBeGreaterThanOrEqual(1_000);
  });

  it('the test alert: one native notification, one toast, no alert row', async () => {
    const s = await started();
    fake.Notification.answer = 'show';
    const answer = await s.invoke('sendTestAlert');
    expect(answer.value).toMatchObject({ outcome: 'shown', banner: false });
    await pastRepeats();
    const d = delivered(s, 'Macrobell test alert');
    expect(d.native).toHaveLength(1);
    expect(d.toasts).toHaveLength(1);
    expect(d.rows).toHaveLength(0);
    expect(s.pushes('banner')).toHaveLength(0);
  });

  it('a reminder: one native notification, one toast, one alert row', async () => {
    const s = await started();
    const all = await simJson<EventDate[]>(s.sim, 'GET', '/_sim/event-dates');
    await s.service.api.setWatched({ eventId: (all[0] as EventDate).eventId, watched: true });
    const { reminderMinutes } = await s.service.api.getAlertRules();
    // due `reminderMinutes` before it: a second and a half from now
    await createRelease(s, reminderMinutes * MINUTE + 1_500, 'Exactly Once Reminder');
    await waitFor(() => delivered(s, 'Exactly Once Reminder').native.length > 0, 'the reminder');
    await pastRepeats();
    const d = delivered(s, 'Exactly Once Reminder');
    expect(d.native).toHaveLength(1);
    expect(d.toasts).toHaveLength(1);
    expect(d.rows).toHaveLength(1);
    expect(d.rows[0]?.kind).toBe('reminder');
  });

  it('a news-window notice: one native notification, one toast, no alert row', async () => {
    const s = await started();
    const settings = await s.service.api.getSettings();
    await s.service.api.updateSettings({
      newsWindow: { ...settings.newsWindow, enabled: true, alerts: true, impacts: ['HIGH'] },
    });
    const { minutesBefore } = (await s.service.api.getSettings()).newsWindow;
    // its window opens a second and a half from now
    await createRelease(s, minutesBefore * MINUTE + 1_500, 'Exactly Once Window');
    const opened = () =>
      fake.Notification.shown.filter((n) => n.options.title.startsWith('News window open'));
    await waitFor(() => opened().length > 0, 'the news-window notice', 10_000);
    await pastRepeats();
    expect(opened()).toHaveLength(1);
    const toasts = (s.pushes('notification') as NativeNotification[]).filter((n) =>
      n.title.startsWith('News window open'),
    );
    expect(toasts).toHaveLength(1);
    expect(s.pushes('alert')).toHaveLength(0);
  });

  it('a late print: one silent native notification, one silent toast, one late row', async () => {
    const s = await started();
    const ed = await createRelease(s, 1_500, 'Exactly Once Late');
    await waitFor(() => Date.now() >= Date.parse(ed.dateUtc), 'the release time');
    // the app learns of it 20 minutes after it printed (as after a sleep)
    await simJson(s.sim, 'POST', '/_sim/faults', { deliveries: { drop: 1_000_000 } });
    await simJson(s.sim, 'PATCH', `/_sim/event-dates/${ed.id}`, { actual: 275 });
    s.clock.ahead = 20 * MINUTE;
    await simJson(s.sim, 'DELETE', '/_sim/faults');
    await s.invoke('syncNow');
    await waitFor(() => delivered(s, 'Exactly Once Late').native.length > 0, 'the late alert');
    await pastRepeats();
    const d = delivered(s, 'Exactly Once Late');
    expect(d.native).toHaveLength(1);
    expect(d.toasts).toHaveLength(1);
    expect(d.toasts[0]?.silent).toBe(true);
    expect(d.rows).toHaveLength(1);
    expect(d.rows[0]?.late).toBe(true);
  });
});
