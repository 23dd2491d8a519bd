// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PushEvent } from '../../../src/shared/ipc.js';
import { apiFrom, BridgeError, type Bridge } from '../../../src/renderer/src/bridge/index.js';
import { createStores, StoresContext } from '../../../src/renderer/src/state/index.js';
import { UpdateNotice } from '../../../src/renderer/src/components/UpdateNotice.js';

afterEach(cleanup);

function setup(install: () => Promise<unknown>) {
  const listeners = new Map<PushEvent, Set<(p: unknown) => void>>();
  const calls: string[] = [];
  const bridge: Bridge = {
    kind: 'test',
    api: apiFrom(async (method) => {
      calls.push(method);
      if (method === 'installUpdate') return install();
      return null;
    }),
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (p: unknown) => void);
      return () => set.delete(listener as (p: unknown) => void);
    },
    onConnection: () => () => undefined,
  };
  render(
    <StoresContext.Provider value={createStores(bridge)}>
      <UpdateNotice />
    </StoresContext.Provider>,
  );
  const push = (payload: unknown) => act(() => listeners.get('update')?.forEach((l) => l(payload)));
  return { push, calls };
}

describe('the update notice', () => {
  it('appears once an update is ready, shows its notes as text, and restarts on request', async () => {
    const { push, calls } = setup(async () => null);
    expect(screen.queryByTestId('update-notice')).toBeNull();
    push({ phase: 'downloading', version: '0.2.0', percent: 50 });
    expect(screen.queryByTestId('update-notice')).toBeNull();
    push({
      phase: 'ready',
      version: '0.2.0',
      releaseName: null,
      releaseNotes: 'Faster alerts\n<img src=x onerror=alert(1)>',
    });
    expect(screen.getByTestId('update-notice').textContent).toContain(
      'Macrobell 0.2.0 is ready to install.',
    );
    // Notes are text: markup in them is shown, never rendered.
    expect(screen.getByText(/Faster alerts/).innerHTML).toContain('&lt;img');
    expect(document.querySelector('.update-banner img')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Restart to update' }));
    await act(async () => undefined);
    expect(calls).toContain('installUpdate');
  });

  it('says why when the update cannot be installed', async () => {
    const { push } = setup(async () => {
      throw new BridgeError('no_update', 'No update is ready to install.');
    });
    push({ phase: 'ready', version: '0.2.0', releaseName: 'Macrobell 0.2', releaseNotes: null });
    fireEvent.click(screen.getByRole('button', { name: 'Restart to update' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'No update is ready to install.',
    );
  });
});
