// @vitest-environment jsdom
/**
 * Toasts and alert sounds in the renderer (both hosts): one toast per notification the
 * alerts engine emits (grouped as the native ones), the sound of its impact level as the
 * settings allow, a click opens what it is about.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_SETTINGS,
  type NativeNotification,
  type Settings,
} from '../../../src/shared/domain.js';
import type { PushEvent, PushPayloads } from '../../../src/shared/ipc.js';
import type { Bridge } from '../../../src/renderer/src/bridge/index.js';
import { soundFor } from '../../../src/renderer/src/lib/sounds.js';
import { statusFixture } from '../../fixtures/domain.js';
import { mount as mountApp } from './harness.js';

/** Which sound files were played, in order (jsdom has no media playback). */
let played: string[] = [];
beforeEach(() => {
  played = [];
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    played.push(this.getAttribute('data-sound') ?? '?');
    return Promise.resolve();
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function mount(kind: Bridge['kind'] = 'test', over: Partial<Settings> = {}) {
  const t = mountApp([], {}, { kind, status: statusFixture({}), settings: over, clock: Date.now });
  const push = <E extends PushEvent>(e: E, p: PushPayloads[E]) => act(() => t.push(e, p));
  return { calls: t.calls, push, stores: t.stores };
}

const note = (over: Partial<NativeNotification> = {}): NativeNotification => ({
  title: 'US Nonfarm Payrolls',
  body: '275K vs 200K consensus (prev 229K) — beat',
  target: { type: 'eventDate', eventDateId: 'ed1', eventId: 'e1' },
  alertIds: [7],
  silent: false,
  volatility: 'HIGH',
  ...over,
});

/** A later alert of its own (medium): a late repeat of an earlier sound would come before its. */
const sentinel = () =>
  note({ title: 'Euro CPI', alertIds: [99], volatility: 'MEDIUM', target: { type: 'alerts' } });

describe('sound choice', () => {
  it('plays the impact’s sound if that level is on; never in quiet hours; news as medium', () => {
    const on = DEFAULT_SETTINGS.sounds;
    expect(soundFor({ volatility: 'HIGH', silent: false }, on)).toBe('HIGH');
    expect(soundFor({ volatility: 'MEDIUM', silent: false }, on)).toBe('MEDIUM');
    expect(soundFor({ volatility: 'LOW', silent: false }, on)).toBeNull(); // off by default
    expect(soundFor({ volatility: 'LOW', silent: false }, { ...on, LOW: true })).toBe('LOW');
    expect(soundFor({ silent: false }, on)).toBe('MEDIUM');
    expect(soundFor({ volatility: 'HIGH', silent: true }, on)).toBeNull();
  });
});

describe('toasts', () => {
  it('shows each notification as a toast (a group as one), with its sound', async () => {
    const t = mount();
    await waitFor(() => expect(t.stores.app.getState().settings).not.toBeNull());
    t.push('notification', note());
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain('US Nonfarm Payrolls');
    expect(toast.textContent).toContain('275K vs 200K consensus');
    await waitFor(() => expect(played).toEqual(['HIGH']));

    t.push(
      'notification',
      note({
        title: 'US: 3 releases at 13:30',
        body: 'US Nonfarm Payrolls: 275K\nUS Unemployment Rate: 4.1%\nUS Average Hourly Earnings m/m: 0.4%',
        target: { type: 'alerts' },
        alertIds: [8, 9, 10],
        volatility: 'MEDIUM',
      }),
    );
    expect(screen.getAllByTestId('toast')).toHaveLength(2);
    expect(screen.getAllByTestId('toast')[1]?.textContent).toContain('US: 3 releases at 13:30');
    await waitFor(() => expect(played).toEqual(['HIGH', 'MEDIUM']));

    // low impact is silent by default, quiet hours silence everything; the toasts still show
    t.push('notification', note({ volatility: 'LOW', title: 'US Redbook', alertIds: [11] }));
    t.push('notification', note({ silent: true, title: 'US CPI', alertIds: [12] }));
    expect(screen.getAllByTestId('toast')).toHaveLength(4);
    expect(played).toEqual(['HIGH', 'MEDIUM']);

    // a fifth pushes the oldest out
    t.push(
      'notification',
      note({ title: 'US Retail Sales', volatility: 'MEDIUM', alertIds: [13] }),
    );
    const titles = screen.getAllByTestId('toast').map((el) => el.textContent ?? '');
    expect(titles).toHaveLength(4);
    expect(titles[0]).toContain('US: 3 releases');
  });

  it('an alert replaced in place (a figure the service never held) takes its toast, with a sound', async () => {
    const t = mount();
    await waitFor(() => expect(t.stores.app.getState().settings).not.toBeNull());
    t.push('notification', note({ body: '999 vs 200K consensus — beat', deliveryId: 1 }));
    await screen.findByTestId('toast');
    await waitFor(() => expect(played).toEqual(['HIGH']));
    t.push(
      'notification',
      note({ body: '182K vs 200K consensus — miss (replaces 999, …)', deliveryId: 2 }),
    );
    const toasts = screen.getAllByTestId('toast');
    expect(toasts).toHaveLength(1);
    expect(toasts[0]?.textContent).toContain('182K vs 200K consensus');
    expect(toasts[0]?.textContent).not.toContain('999 vs');
    await waitFor(() => expect(played).toEqual(['HIGH', 'HIGH']));
  });

  it('a click opens the target and marks its alerts read; ✕ only closes', async () => {
    const t = mount();
    await waitFor(() => expect(t.stores.app.getState().settings).not.toBeNull());
    t.push('notification', note({ target: { type: 'alerts' }, alertIds: [3, 4] }));
    fireEvent.click(within(await screen.findByTestId('toast')).getByText('US Nonfarm Payrolls'));
    expect(screen.queryByTestId('toast')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Alerts' })).toBeTruthy();
    await waitFor(() =>
      expect(t.calls.filter(([m]) => m === 'markAlertsRead').map(([, i]) => i)).toEqual([
        { ids: [3] },
        { ids: [4] },
      ]),
    );
    t.push('notification', note({ title: 'US CPI' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss: US CPI' }));
    expect(screen.queryByTestId('toast')).toBeNull();
  });

  it('a sound level switched on in Settings plays from then on', async () => {
    const t = mount();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const low = await screen.findByRole('checkbox', { name: 'Low impact' });
    expect((low as HTMLInputElement).checked).toBe(false);
    fireEvent.click(low);
    await waitFor(() => expect(t.stores.app.getState().settings?.sounds.LOW).toBe(true));
    expect(t.calls).toContainEqual([
      'updateSettings',
      { sounds: { HIGH: true, MEDIUM: true, LOW: true } },
    ]);
    t.push('notification', note({ volatility: 'LOW' }));
    await waitFor(() => expect(played).toEqual(['LOW']));
    fireEvent.click(screen.getByRole('button', { name: 'Play the high impact sound' }));
    await waitFor(() => expect(played).toEqual(['LOW', 'HIGH']));
  });

  it('web mode: the browser’s notification once allowed, while the tab is in the background', async () => {
    const shown: { title: string; body?: string }[] = [];
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static requestPermission = vi.fn(async () => {
        FakeNotification.permission = 'granted';
        return 'granted' as const;
      });
      onclick: (() => void) | null = null;
      constructor(title: string, o: NotificationOptions) {
        shown.push({ title, body: o.body });
      }
      close() {}
    }
    vi.stubGlobal('Notification', FakeNotification);
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    try {
      const t = mount('http');
      fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
      t.push('notification', note({ title: 'Before consent' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Allow browser notifications' }));
      await waitFor(() =>
        expect(t.stores.app.getState().settings?.browserNotifications).toBe(true),
      );
      expect(
        await screen.findByRole('checkbox', { name: /Browser notifications while this tab/ }),
      ).toBeTruthy();
      t.push('notification', note());
      expect(shown).toEqual([
        { title: 'US Nonfarm Payrolls', body: '275K vs 200K consensus (prev 229K) — beat' },
      ]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('one alert, one surface, one sound: a web HIGH print in a background tab is the banner, not also a toast', async () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(false); // the tab in the background
    const t = mount('http'); // no browser notifications: the banner stands in for HIGH
    await waitFor(() => expect(t.stores.app.getState().settings).not.toBeNull());
    t.push('notification', note());
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
    expect(screen.getAllByTestId('alert-banner')).toHaveLength(1);
    expect(screen.getByTestId('alert-banner').textContent).toContain('US Nonfarm Payrolls');
    await waitFor(() => expect(played).toHaveLength(1));
    // the desktop's banner push for the same alert (the OS did not show it): still one sound
    t.push('banner', note());
    // a banner for an alert no toast sounded for (sound level off) does sound, once
    t.push('banner', note({ title: 'US CPI', alertIds: [8], volatility: 'LOW' }));
    await waitFor(() => expect(played).toEqual(['HIGH', 'LOW']));
    // no late third sound: a later alert's sound comes right after these two
    t.push('notification', sentinel());
    await waitFor(() => expect(played).toEqual(['HIGH', 'LOW', 'MEDIUM']));
  });

  it('two alerts pushed together sound once, at the louder level, whichever came first', async () => {
    const t = mount();
    await waitFor(() => expect(t.stores.app.getState().settings).not.toBeNull());
    // a reminder (medium) and a HIGH print in the same turn: one state reaches the player
    act(() => {
      t.stores.toasts
        .getState()
        .push(note({ title: 'Reminder', alertIds: [20], volatility: 'MEDIUM' }));
      t.stores.toasts.getState().push(note({ title: 'US CPI', alertIds: [21] }));
    });
    act(() => {
      t.stores.toasts.getState().push(note({ title: 'US GDP', alertIds: [22] }));
      t.stores.toasts
        .getState()
        .push(note({ title: 'Reminder 2', alertIds: [23], volatility: 'MEDIUM' }));
    });
    expect(screen.getAllByTestId('toast')).toHaveLength(4);
    await waitFor(() => expect(played).toHaveLength(2));
    expect(played).toEqual(['HIGH', 'HIGH']);
    // once played, a later medium alert sounds as medium (not merged into the last HIGH), and
    // right after the two: no late third sound came between
    t.push('notification', note({ title: 'Reminder 3', alertIds: [24], volatility: 'MEDIUM' }));
    await waitFor(() => expect(played).toEqual(['HIGH', 'HIGH', 'MEDIUM']));
  });

  it('one alert, one sound, whichever comes first: a banner before its toast', async () => {
    const t = mount('http');
    await waitFor(() => expect(t.stores.app.getState().settings).not.toBeNull());
    // The web host's test alert: the banner is shown as the request returns, and the
    // core's toast for it may arrive after (a loaded machine).
    const test = note({ title: 'Macrobell test alert', alertIds: [], test: true });
    t.stores.alertBanner.getState().show(test);
    await waitFor(() => expect(played).toEqual(['HIGH']));
    t.push('notification', test);
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    // no late second sound: a later alert's sound comes right after the first
    t.push('notification', sentinel());
    await waitFor(() => expect(played).toEqual(['HIGH', 'MEDIUM']));
  });
});
