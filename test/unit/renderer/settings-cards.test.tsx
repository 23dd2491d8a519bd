// @vitest-environment jsdom
/**
 * Settings → Live updates tells the same truth as the status bar and refuses an unusable relay
 * address inline; without a keychain the keys card says what is wrong and what still works.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppStatus } from '../../../src/shared/domain.js';
import type { PushEvent, PushPayloads } from '../../../src/shared/ipc.js';
import { relayUrlProblem } from '../../../src/renderer/src/components/settings/LiveUpdatesCard.js';
import { statusFixture } from '../../fixtures/domain.js';
import { mount, type Answers } from './harness.js';

afterEach(cleanup);

function openSettings(status: AppStatus, extra: Answers = {}) {
  const t = mount(
    [],
    { setRelay: () => status.credentials, ...extra },
    { status, clock: Date.now },
  );
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  const push = <E extends PushEvent>(e: E, p: PushPayloads[E]) => act(() => t.push(e, p));
  return { calls: t.calls, push };
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
