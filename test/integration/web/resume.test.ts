/**
 * The web host's push stream resumes (src/main/web/push-log.ts): every push carries an id,
 * and a page that reconnects with the last one it saw (`Last-Event-ID`, as the browser
 * sends it, or `?lastEventId=` on a stream it opens anew) first gets exactly what it missed —
 * a notification pushed during the reconnect included — and a page whose id is no longer
 * kept, or from another run of the host, is told to read everything again. Real HTTP.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type RunningWebHost } from '../../../src/main/web/host.js';
import type { NativeNotification } from '../../../src/shared/domain.js';
import { createFakeService, type FakeService } from './fake-service.js';
import { waitFor } from '../../support/wait.js';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuv';
const auth = { authorization: `Bearer ${TOKEN}` };

function builtRenderer(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'mb-web-resume-')), 'renderer');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Macrobell</title><div id=root>');
  return dir;
}

let service: FakeService;
let host: RunningWebHost;
beforeAll(async () => {
  service = createFakeService();
  host = await startWebHost({
    service,
    staticDir: builtRenderer(),
    token: TOKEN,
    heartbeatMs: 60_000,
  });
});
afterAll(() => host.close());

interface Frame {
  id?: string;
  event?: string;
  data?: string;
}

/** An open stream and the frames read from it so far. */
async function stream(headers: Record<string, string> = {}, query = '') {
  const controller = new AbortController();
  const res = await fetch(`${host.origin}/api/events${query}`, {
    headers: { ...auth, ...headers },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const frames = (): Frame[] =>
    text
      .split('\n\n')
      .slice(0, -1)
      .map((block) => {
        const f: Frame = {};
        for (const line of block.split('\n')) {
          const m = /^(id|event|data): (.*)$/.exec(line);
          if (m) f[m[1] as keyof Frame] = m[2];
        }
        return f;
      })
      .filter((f) => f.event !== undefined);
  const readUntil = async (done: (f: Frame[]) => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done(frames())) {
      if (Date.now() > deadline) throw new Error(`not yet: ${text}`);
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error(`stream ended: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    return frames();
  };
  const close = async () => {
    controller.abort();
    await waitFor(() => host.openStreams() === 0, 'the stream to close');
  };
  return { readUntil, close };
}

const print = (title: string): NativeNotification => ({
  title,
  body: '275K vs 200K',
  target: { type: 'alerts' },
  alertIds: [1],
  silent: false,
  volatility: 'HIGH',
  deliveryId: 1,
});

describe('the push stream resumes', () => {
  it('a notification pushed while the page reconnects reaches it once, on resume', async () => {
    const first = await stream();
    await waitFor(() => host.openStreams() === 1, 'the stream to open');
    service.emit('navigate', { type: 'settings' });
    const [seen] = await first.readUntil((f) => f.length === 1);
    expect(seen?.id).toMatch(/^[0-9a-f]{8}\.\d+$/);
    await first.close();

    // the page is away: a HIGH print and a status push go out meanwhile
    service.emit('notification', print('US Nonfarm Payrolls'));
    service.emit('alertsRead', { ids: null });

    const again = await stream({ 'last-event-id': seen?.id as string });
    await waitFor(() => host.openStreams() === 1, 'the stream to reopen');
    service.emit('navigate', { type: 'alerts' }); // live again after the missed ones
    const frames = await again.readUntil((f) => f.length === 3);
    expect(frames.map((f) => f.event)).toEqual(['notification', 'alertsRead', 'navigate']);
    expect(JSON.parse(frames[0]?.data as string)).toMatchObject({ title: 'US Nonfarm Payrolls' });
    // ids keep growing across the reconnect: the browser resumes from the newest
    const seqs = [seen, ...frames].map((f) => Number(f?.id?.split('.')[1]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(4);
    await again.close();
  });

  it('a new stream opened by the page resumes from `?lastEventId=` the same way', async () => {
    const first = await stream();
    await waitFor(() => host.openStreams() === 1, 'the stream to open');
    service.emit('navigate', { type: 'settings' });
    const [seen] = await first.readUntil((f) => f.length === 1);
    await first.close();
    service.emit('notification', print('US CPI'));
    const again = await stream({}, `?lastEventId=${encodeURIComponent(seen?.id as string)}`);
    const frames = await again.readUntil((f) => f.length === 1);
    expect(frames.map((f) => [f.event, JSON.parse(f.data as string).title])).toEqual([
      ['notification', 'US CPI'],
    ]);
    await again.close();
  });

  it('an id from another run of the host, or garbage, gets `resync`: read everything again', async () => {
    for (const id of ['0badc0de.3', 'not-an-id']) {
      const s = await stream({ 'last-event-id': id });
      const frames = await s.readUntil((f) => f.length === 1);
      expect(frames.map((f) => f.event)).toEqual(['resync']);
      await s.close();
    }
  });

  it('a first connection gets no replay: only what is pushed from then on', async () => {
    service.emit('navigate', { type: 'settings' });
    const s = await stream();
    await waitFor(() => host.openStreams() === 1, 'the stream to open');
    service.emit('alertsRead', { ids: [3] });
    const frames = await s.readUntil((f) => f.length === 1);
    expect(frames.map((f) => f.event)).toEqual(['alertsRead']);
    await s.close();
  });

  it('a page that stops reading is let go once a megabyte waits for it, not buffered without end', async () => {
    // a frozen tab: the stream is open, nothing reads it
    const stalled = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: host.port, path: '/api/events', headers: auth },
        (res) => {
          res.pause();
          resolve(res);
        },
      );
      req.on('error', reject);
      req.end();
    });
    await waitFor(() => host.openStreams() === 1, 'the stream to open');
    const big = 'x'.repeat(500_000);
    // far more than the socket's buffers hold: the host's own queue for it would grow
    for (let i = 0; i < 60 && host.openStreams() > 0; i++) {
      service.emit('changes', [{ kind: 'eventDateRemoved', id: big, eventId: `e${i}` }] as never);
      await new Promise((r) => setImmediate(r)); // a turn of the loop: the socket writes what it can
    }
    await waitFor(() => host.openStreams() === 0, 'the stalled stream to be ended');
    stalled.destroy();
  });
});
