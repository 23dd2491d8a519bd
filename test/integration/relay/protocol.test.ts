/** The relay's HTTP/SSE protocol, byte for byte, on a real server on loopback. */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { RelayConsumer } from '../../../src/main/sync/relay-consumer.js';
import { SECRET, TOKEN, openRawStream, pageAll, post, tempDir, waitFor } from './helpers.js';

const auth = { authorization: `Bearer ${TOKEN}` };
let relay: RunningRelay | null = null;
afterEach(async () => {
  await relay?.close();
  relay = null;
});

describe('SSE wire format', () => {
  it('sends a retry hint, heartbeats with the head, and each webhook as id/event/data with the raw body', async () => {
    relay = await startRelay({
      dataDir: tempDir(),
      secret: SECRET,
      token: TOKEN,
      heartbeatMs: 100,
    });
    const stream = await openRawStream(`${relay.url}/events`, auth);
    expect(stream.res.statusCode).toBe(200);
    expect(stream.res.headers['content-type']).toMatch(/^text\/event-stream/);
    // Raw bytes, spacing and a newline inside whitespace: the data line keeps the same JSON.
    const raw = '{ "type":"eventDate_updated",\n  "eventDateId":"a", "x": [1, 2] }';
    expect((await post(relay.webhookUrl, raw)).status).toBe(204);
    await waitFor(() => stream.text().includes('id: 1\n'), 'the event on the stream');
    // Heartbeats carry the node's head and how long its store has been silent (relay-behind.ts).
    const beat = 'event: heartbeat\ndata: {"lastId":"1","storeSilentMs":0}\n\n';
    await waitFor(() => stream.text().includes(beat), 'a heartbeat with the head');
    const text = stream.text();
    stream.close();
    // Opened without an id: its position first, so a drop before any event loses nothing.
    expect(text.startsWith('retry: 2000\n\nid: 0\nevent: position\ndata: {"lastId":"0"}\n\n')).toBe(
      true,
    );
    const block = /id: 1\nevent: notification\ndata: (.*)\n\n/.exec(text);
    expect(block).not.toBeNull();
    expect(block?.[1]).toBe('{ "type":"eventDate_updated",   "eventDateId":"a", "x": [1, 2] }');
    expect(JSON.parse(block?.[1] as string)).toEqual(JSON.parse(raw));
  });

  it('switches from replay to live with no gap and no duplicate while webhooks pour in', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    const agent = new Agent({ connections: 16 });
    const send = async (n: number) => {
      const res = await request(relay!.webhookUrl, {
        method: 'POST',
        dispatcher: agent,
        body: JSON.stringify({ type: 'post_created', n }),
      });
      await res.body.dump();
      expect(res.statusCode).toBe(204);
    };
    // 1,200 stored first so the replay spans several pages, then more during the replay.
    for (let b = 0; b < 1200; b += 100)
      await Promise.all(Array.from({ length: 100 }, (_, i) => send(b + i)));
    const applied: number[] = [];
    let cursor: number | null = 0;
    const consumer = new RelayConsumer({
      url: relay.url,
      token: async () => TOKEN,
      getLastEventId: () => (cursor === null ? null : String(cursor)),
      applier: {
        one: async (raw) => {
          const id = Number(raw);
          applied.push(id);
          cursor = id;
        },
      },
      onReset: async () => undefined,
      onReconnectGap: async () => undefined,
      onStatus: () => undefined,
      backoff: { minMs: 20, maxMs: 200 },
    });
    consumer.start();
    for (let b = 1200; b < 1800; b += 50)
      await Promise.all(Array.from({ length: 50 }, (_, i) => send(b + i)));
    await waitFor(() => applied.length >= 1800, 'all 1,800 events', 30_000);
    await consumer.stop();
    await agent.close();
    expect(applied).toEqual(Array.from({ length: 1800 }, (_, i) => i + 1));
  });
});

describe('fan-out', () => {
  it('gives a burst to many streams once each and in order, one write per client per batch', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    const r = relay;
    // notifications only: a live-only stream starts with its position (`event: position`)
    const ids = (text: string) =>
      [...text.matchAll(/^id: (\d+)\nevent: notification$/gm)].map((m) => Number(m[1]));
    const live = await Promise.all(
      Array.from({ length: 40 }, () => openRawStream(`${r.url}/events`, auth)),
    );
    const agent = new Agent({ connections: 32 });
    const send = async (n: number) => {
      const res = await request(r.webhookUrl, {
        method: 'POST',
        dispatcher: agent,
        body: JSON.stringify({ type: 'post_created', n }),
      });
      await res.body.dump();
      expect(res.statusCode).toBe(204);
    };
    const total = 320;
    let resumed: Awaited<ReturnType<typeof openRawStream>> | null = null;
    for (let b = 0; b < total; b += 32) {
      await Promise.all(Array.from({ length: 32 }, (_, i) => send(b + i)));
      // Mid-burst, a client resumes from id 100: replay, then live, with no gap or repeat.
      if (b === 160) resumed = await openRawStream(`${r.url}/events?after=100`, auth);
    }
    await agent.close();
    const all = Array.from({ length: total }, (_, i) => i + 1);
    for (const s of live) await waitFor(() => ids(s.text()).length >= total, 'every event');
    await waitFor(() => ids(resumed?.text() ?? '').length >= total - 100, 'the resumed stream');
    await new Promise((res) => setTimeout(res, 100));
    for (const s of live) expect(ids(s.text())).toEqual(all);
    expect(ids(resumed?.text() ?? '')).toEqual(all.slice(100));
    [...live, resumed].forEach((s) => s?.close());
    // Batches were coalesced: fewer fan-out rounds than events.
    const rounds = Number(
      /^macrobell_relay_fanout_rounds_total (\d+)$/m.exec(await r.metrics())?.[1],
    );
    expect(rounds).toBeGreaterThan(0);
    expect(rounds).toBeLessThan(total);
  });
});

describe('HEAD /events', () => {
  it('answers with the stream headers and no stream, and keeps no client open', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    const head = (headers: Record<string, string>) =>
      new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
        const req = httpRequest(`${relay?.url}/events`, { method: 'HEAD', headers }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          // A streamed response would never end: 'end' is the assertion.
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }),
          );
        });
        req.setTimeout(5_000, () => req.destroy(new Error('HEAD /events did not end')));
        req.on('error', reject);
        req.end();
      });
    const ok = await head(auth);
    expect(ok).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8', body: '' });
    expect(await relay.metrics()).toMatch(/^macrobell_relay_connected_clients 0$/m);
    expect((await head({ authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    // Webhooks stored afterwards go nowhere (no client) and a GET still streams them.
    expect((await post(relay.webhookUrl, '{"type":"x"}')).status).toBe(204);
    const stream = await openRawStream(`${relay.url}/events?after=0`, auth);
    await waitFor(() => stream.text().includes('id: 1\n'), 'the event on a GET stream');
    stream.close();
  });
});

describe('bad input', () => {
  it('answers each bad request with the right status and a JSON error, and stays healthy', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    const r = relay;
    const status = async (
      path: string,
      init: {
        method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
        headers?: Record<string, string>;
        body?: string;
      } = {},
    ) => {
      const res = await request(`${r.url}${path}`, init);
      const text = await res.body.text();
      return {
        status: res.statusCode,
        json: text ? (JSON.parse(text) as { error?: string }) : null,
      };
    };
    expect(
      (await status(`/hooks/${SECRET}x`, { method: 'POST', body: '{"type":"x"}' })).status,
    ).toBe(404);
    expect((await status(`/hooks/${SECRET}`, { method: 'PUT', body: '{}' })).status).toBe(405);
    expect((await status(`/hooks/${SECRET}`, { method: 'POST', body: '' })).json?.error).toBe(
      'invalid_json',
    );
    expect((await status(`/hooks/${SECRET}`, { method: 'POST', body: '"type"' })).status).toBe(400);
    expect((await status(`/hooks/${SECRET}`, { method: 'POST', body: '{"type":7}' })).status).toBe(
      400,
    );
    expect(
      (await status(`/hooks/${SECRET}`, { method: 'POST', body: '[{"type":"x"}]' })).status,
    ).toBe(400);
    expect((await status('/events', { method: 'POST', headers: auth })).status).toBe(405);
    expect(
      (await status('/events', { headers: { authorization: `Bearer ${TOKEN}x` } })).status,
    ).toBe(401);
    expect((await status('/events', { headers: { authorization: TOKEN } })).status).toBe(401);
    expect((await status('/events?after=abc', { headers: auth })).status).toBe(400);
    expect((await status('/events', { headers: { ...auth, 'last-event-id': '-3' } })).status).toBe(
      400,
    );
    expect((await status('/events/page?limit=0', { headers: auth })).status).toBe(400);
    expect((await status('/events/page?after=1.5', { headers: auth })).status).toBe(400);
    expect((await status('/events/page?limit=5000', { headers: auth })).status).toBe(400);
    const unknown = await status('/nope');
    expect(unknown).toEqual({ status: 404, json: { error: 'not_found', message: 'Not found' } });

    // Too large without a content-length (chunked): refused once the cap is passed.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${r.webhookUrl}`,
        { method: 'POST', headers: { 'transfer-encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write(`{"type":"x","pad":"`);
      const chunk = 'a'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 40 && req.write(chunk)) sent++;
        if (sent < 40) req.once('drain', () => (sent++, pump()));
        else req.end('"}');
      };
      pump();
    });
    expect(chunked).toBe(413);

    const health = await status('/healthz');
    expect(health).toEqual({ status: 200, json: { ok: true, backend: 'sqlite', lastId: '0' } });
    expect(await pageAll(r.url)).toEqual([]);
    expect(await r.metrics()).toMatch(/^macrobell_relay_rejected_total 5$/m);
  });
});

describe('resume edge cases', () => {
  it('sends reset when the id is from a log this relay never had, then everything it has', async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
    for (let n = 1; n <= 3; n++) await post(relay.webhookUrl, JSON.stringify({ type: 't', n }));
    const stream = await openRawStream(`${relay.url}/events`, { ...auth, 'last-event-id': '500' });
    await waitFor(() => stream.text().includes('id: 3\n'), 'the replay');
    stream.close();
    const text = stream.text();
    const reset = /event: reset\ndata: (.*)\n/.exec(text);
    expect(JSON.parse(reset?.[1] as string)).toEqual({ oldestId: '1', lastId: '3' });
    expect(text.indexOf('event: reset')).toBeLessThan(text.indexOf('id: 1\n'));
    expect([...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).toEqual([1, 2, 3]);
  });

  it('cuts a client that stops reading once its backlog passes the cap', async () => {
    relay = await startRelay({
      dataDir: tempDir(),
      secret: SECRET,
      token: TOKEN,
      maxQueuedBytesPerClient: 64 * 1024,
    });
    const r = relay;
    let closed = false;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${r.url}/events`, { headers: auth }, (res) => {
        res.pause(); // never read: the relay's writes back up
        res.on('close', () => (closed = true));
        res.on('error', () => (closed = true));
        resolve(res);
      });
      req.on('error', () => (closed = true));
      req.on('close', () => (closed = true));
      req.end();
      setTimeout(() => reject(new Error('no response')), 10_000).unref();
    });
    await waitFor(
      async () => /^macrobell_relay_connected_clients 1$/m.test(await r.metrics()),
      'the client',
    );
    const big = JSON.stringify({ type: 'post_created', pad: 'x'.repeat(60_000) });
    for (
      let i = 0;
      i < 400 && !/^macrobell_relay_slow_disconnects_total 1$/m.test(await r.metrics());
      i++
    )
      expect((await post(r.webhookUrl, big)).status).toBe(204);
    expect(await r.metrics()).toMatch(/^macrobell_relay_slow_disconnects_total 1$/m);
    expect(await r.metrics()).toMatch(/^macrobell_relay_connected_clients 0$/m);
    // Reading again, the client drains what was sent and then sees the end (it would resume).
    response.resume();
    await waitFor(() => closed, 'the client to see its connection closed');
  });
});
