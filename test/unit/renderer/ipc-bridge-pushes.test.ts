// The Electron bridge checks each push against the contract once, whatever the number of
// subscribers: a malformed one is dropped and reported once, a good one reaches every store.
import { describe, expect, it } from 'vitest';
import type { PreloadBridge, PushEvent } from '../../../src/shared/ipc.js';
import { createIpcBridge } from '../../../src/renderer/src/bridge/ipc.js';
import { waitFor } from '../../support/wait.js';

/** What the preload hands the renderer: raw payloads from the main process, by push name. */
function fakePreload() {
  const subscribers = new Map<PushEvent, ((p: unknown) => void)[]>();
  const preload: PreloadBridge = {
    invoke: () => Promise.reject(new Error('no requests in this test')),
    on(event, listener) {
      subscribers.set(event, [...(subscribers.get(event) ?? []), listener]);
      return () => undefined;
    },
    platform: 'linux',
  };
  const send = (event: PushEvent, payload: unknown) =>
    subscribers.get(event)?.forEach((l) => l(payload));
  return { preload, send, subscribers };
}

describe('IPC bridge pushes', () => {
  it('drops a malformed push once and delivers the next good one to every listener', async () => {
    const { preload, send, subscribers } = fakePreload();
    const bad: string[] = [];
    const bridge = createIpcBridge(preload, (problem) => bad.push(problem));
    const read: (number[] | null)[] = [];
    for (let i = 0; i < 3; i++) bridge.on('alertsRead', (r) => read.push(r.ids));
    expect(subscribers.get('alertsRead')).toHaveLength(1);

    send('alertsRead', { ids: ['one'] });
    send('alertsRead', { ids: [4, 5] });
    await waitFor(() => read.length === 3, 'the good push, to each listener');
    expect(read).toEqual([
      [4, 5],
      [4, 5],
      [4, 5],
    ]);
    expect(bad).toEqual([expect.stringMatching(/^dropped a malformed "alertsRead" push: .*ids/)]);
  });
});
