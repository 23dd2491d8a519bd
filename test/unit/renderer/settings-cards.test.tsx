// @vitest-environment jsdom
/**
 * Settings → Live updates tells the same truth as the status bar and refuses an unusable relay
 * address inline; without a keychain the keys card says what is wrong and what still works.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type AppStatus, type Settings } from '../../../src/shared/domain.js';
import type { AppApi, PushEvent, PushPayloads } from '../../../src/shared/ipc.js';
import { apiFrom, type Bridge } from '../../../src/renderer/src/bridge/index.js';
import { createStores, StoresContext } from '../../../src/renderer/src/state/index.js';
import { App } from '../../../src/renderer/src/components/App.js';
import { relayUrlProblem } from '../../../src/renderer/src/components/settings/LiveUpdatesCard.js';
import { statusFixture } from '../../fixtures/domain.js';

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

afterEach(cleanup);

type Answers = Partial<Record<keyof AppApi, (input: unknown) => unknown>>;

function openSettings(status: AppStatus, extra: Answers = {}) {
  const calls: [string, unknown][] = [];
  const listeners = new Map<PushEvent, Set<(p: unknown) => void>>();
  const settings: Settings = structuredClone(DEFAULT_SETTINGS);
  const answers: Answers = {
    getStatus: () => status,
    getSettings: () => settings,
    listEventDates: () => [],
    listCategories: () => [],
    getCredentials: () => status.credentials,
    listAlerts: () => [],
    getAlertRules: () => settings.alertRules,
    setRelay: () => status.credentials,
    ...extra,
  };
  const bridge: Bridge = {
    kind: 'test',
    api: apiFrom(async (method, input) => {
      calls.push([method, input]);
      return answers[method as keyof AppApi]?.(input) ?? null;
    }),
    on(event, l) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(l as (p: unknown) => void);
      return () => set.delete(l as (p: unknown) => void);
    },
    onConnection: () => () => undefined,
  };
  render(
    <StoresContext.Provider value={createStores(bridge)}>
      <App />
    </StoresContext.Provider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  const push = <E extends PushEvent>(e: E, p: PushPayloads[E]) =>
    act(() => listeners.get(e)?.forEach((l) => l(p)));
  return { calls, push };
}

const statusBarLabel = () => screen.getByTestId('status-bar').textContent ?? '';

describe('Settings → Live updates', () => {
  it('shows the status’s connection state, as the status bar does (demo: not "Polling")', async () => {
    const t = openSettings(
      statusFixture({
        demo: true,
        connection: { state: 'live', transport: 'webhooks', reason: null, since: 1 },
      }),
    );
    const state = await screen.findByTestId('live-state');
    await waitFor(() => expect(state.textContent).toContain('Live (demo webhooks)'));
    expect(statusBarLabel()).toContain('Live (demo webhooks)');
    expect(screen.getByRole('region', { name: 'Live updates' }).textContent).not.toMatch(
      /^Polling/m,
    );
    t.push(
      'status',
      statusFixture({
        demo: false,
        connection: { state: 'offline', transport: 'polling', reason: 'x', since: 1 },
        mode: 'offline',
      }),
    );
    await waitFor(() => expect(state.textContent).toContain('Offline'));
    expect(statusBarLabel()).toContain('Offline');
  });

  it('explains an invalid relay URL inline and does not save it', async () => {
    const t = openSettings(statusFixture({ demo: false, mode: 'polling' }));
    const field = await screen.findByLabelText('Relay URL');
    fireEvent.change(field, { target: { value: 'relay.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/starting with https:\/\//);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(t.calls.some(([m]) => m === 'setRelay')).toBe(false);
    fireEvent.change(field, { target: { value: 'https://relay.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(t.calls).toContainEqual(['setRelay', { url: 'https://relay.example.com' }]),
    );
    expect(await screen.findByText('Relay saved.')).toBeTruthy();
  });

  it('takes https anywhere and http on this machine only', () => {
    expect(relayUrlProblem('https://relay.example.com/base')).toBeNull();
    expect(relayUrlProblem('http://127.0.0.1:8787')).toBeNull();
    expect(relayUrlProblem('')).toBeNull();
    expect(relayUrlProblem('http://relay.example.com')).toMatch(/unencrypted/);
    expect(relayUrlProblem('ftp://relay.example.com')).toMatch(/https:\/\//);
    expect(relayUrlProblem('https://user:pw@relay.example.com')).toMatch(/token/);
  });
});

describe('Settings → API keys without a keychain', () => {
  it('says in one sentence what is wrong and what still works; no raw D-Bus error', async () => {
    const status = statusFixture({});
    openSettings(status, {
      getCredentials: () => ({
        ...status.credentials,
        configured: false,
        keychainAvailable: false,
        keychainError:
          'org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files',
      }),
    });
    const notice = await screen.findByTestId('keychain-missing');
    expect(notice.textContent).toMatch(/cannot be saved/);
    expect(notice.textContent).toMatch(
      /demo data, the cached calendar, news and alerts keep working/,
    );
    expect(document.body.textContent).not.toMatch(/DBus|freedesktop/);
    expect((screen.getByRole('button', { name: 'Save keys' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
