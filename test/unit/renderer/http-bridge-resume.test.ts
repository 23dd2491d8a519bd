/**
 * The web bridge resumes its push stream (src/renderer/src/bridge/http.ts): a stream it opens
 * anew after the host closed the old one asks for what came after the last push it saw
 * (`?lastEventId=`, as the browser's own retries send `Last-Event-ID`), and the host's
 * `resync` — too late to replay — reaches whoever reloads what the window shows.
 */
import { describe, expect, it } from 'vitest';
import { createHttpBridge, type EventSourceLike } from '../../../src/renderer/src/bridge/http.js';
import { waitFor } from '../../support/wait.js';

/** A stream the test drives: its URL, its listeners, its failure. */
function scriptedStreams() {
  const opened: {
    url: string;
    es: EventSourceLike & { readyState: number };
    emit(type: string, data: string, id?: string): void;
  }[] = [];
  const open = (url: string): EventSourceLike => {
    const listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
    const es = {
      onopen: null,
      onerror: null,
      readyState: 1,
      addEventListener(type: string, l: (e: MessageEvent<string>) => void) {
        listeners.set(type, [...(listeners.get(type) ?? []), l]);
      },
      close() {
        es.readyState = 2;
      },
    } as EventSourceLike & { readyState: number };
    opened.push({
      url,
      es,
      emit: (type, data, id) =>
        listeners
          .get(type)
          ?.forEach((l) => l(new MessageEvent(type, { data, lastEventId: id ?? '' }))),
    });
    return es;
  };
  return { opened, open };
}

describe('the web bridge resumes its stream', () => {
  it('a stream opened anew asks for what came after the last push seen', async () => {
    const s = scriptedStreams();
    const bridge = createHttpBridge({ openEvents: s.open, reopenDelayMs: 5, pageKey: 'k-1' });
    const seen: unknown[] = [];
    bridge.on('navigate', (p) => seen.push(p));
    const first = s.opened[0];
    expect(first?.url).toBe('/api/events?key=k-1');
    first?.emit('navigate', '{"type":"settings"}', 'a1b2c3d4.41');
    first?.emit('navigate', '{"type":"alerts"}', 'a1b2c3d4.42');
    // pushes are checked against the contract (in a chunk loaded on the first push) first
    await waitFor(() => seen.length === 2 || null, 'both pushes');
    expect(seen).toEqual([{ type: 'settings' }, { type: 'alerts' }]);
    // the host went away: the browser gives up on this stream, the bridge opens another
    if (first) first.es.readyState = 2;
    first?.es.onerror?.(new Event('error'));
    await waitFor(() => s.opened.length === 2 || null, 'the stream to be opened again');
    expect(s.opened[1]?.url).toBe('/api/events?key=k-1&lastEventId=a1b2c3d4.42');
    bridge.close();
  });

  it("the host's resync reaches the window's reload, once per resync", () => {
    const s = scriptedStreams();
    const bridge = createHttpBridge({ openEvents: s.open, pageKey: null });
    let reloads = 0;
    const off = bridge.onResync?.(() => reloads++);
    s.opened[0]?.emit('resync', '{}');
    expect(reloads).toBe(1);
    off?.();
    s.opened[0]?.emit('resync', '{}');
    expect(reloads).toBe(1);
    bridge.close();
  });
});
