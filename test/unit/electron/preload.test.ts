import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { IPC_REQUEST_CHANNEL, PUSH_EVENTS, ipcPushChannel } from '../../../src/shared/ipc.js';
import type { PreloadBridge } from '../../../src/shared/ipc.js';

describe('preload', () => {
  it('exposes exactly the contract as window.macrobell, never ipcRenderer', async () => {
    await import('../../../src/preload/index.js');
    expect([...fake.contextBridge.exposed.keys()]).toEqual(['macrobell']);
    const api = fake.contextBridge.exposed.get('macrobell') as PreloadBridge;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on', 'platform']);
    expect(api.platform).toBe(process.platform);
    expect(Object.values(api)).not.toContain(fake.ipcRenderer);

    fake.ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: 'pong' });
    expect(await api.invoke('getDiagnostics', undefined)).toEqual({ ok: true, value: 'pong' });
    expect(fake.ipcRenderer.invoke).toHaveBeenCalledWith(
      IPC_REQUEST_CHANNEL,
      'getDiagnostics',
      undefined,
    );
  });

  it('subscribes only to known push events, hides the IPC event, and unsubscribes', async () => {
    await import('../../../src/preload/index.js');
    const api = fake.contextBridge.exposed.get('macrobell') as PreloadBridge;
    fake.ipcRenderer.on.mockClear();
    const offUnknown = api.on('not-an-event' as never, () => undefined);
    expect(fake.ipcRenderer.on).not.toHaveBeenCalled();
    offUnknown();
    expect(fake.ipcRenderer.removeListener).not.toHaveBeenCalled();

    for (const event of PUSH_EVENTS) {
      const got: unknown[] = [];
      const off = api.on(event, (p) => got.push(p));
      const [channel, wrapped] = fake.ipcRenderer.on.mock.calls.at(-1) as [
        string,
        (...a: unknown[]) => void,
      ];
      expect(channel).toBe(ipcPushChannel(event));
      wrapped({ sender: 'ipc event with sender' }, { n: 1 });
      expect(got).toEqual([{ n: 1 }]); // the listener sees the payload only
      off();
      expect(fake.ipcRenderer.removeListener).toHaveBeenLastCalledWith(channel, wrapped);
    }
  });
});
