// The web-mode bridge against a real HTTP server on 127.0.0.1: requests, errors, pushes over
// SSE, and the host going away and coming back.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpBridge, type EventSourceLike } from '../../../src/renderer/src/bridge/http.js';
import type { Connection } from '../../../src/renderer/src/bridge/index.js';
import { statusFixture } from '../../fixtures/domain.js';
import { waitFor } from '../../support/wait.js';

/** Node 20 has no EventSource: a minimal one over fetch, which (like the browser's after an
 * HTTP error) closes for good when the stream fails, leaving the retry to the bridge. */
function nodeEventSource(url: string): EventSourceLike {
  const listeners = new Map<string, Set<(e: MessageEvent<string>) => void>>();
  const abort = new AbortController();
  const es: EventSourceLike & { readyState: number } = {
    onopen: null,
    onerror: null,
    readyState: 0,
    addEventListener(type, l) {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      set.add(l);
    },
    close() {
      es.readyState = 2;
      abort.abort();
    },
  };
  const fail = () => {
    if (es.readyState === 2) return;
    es.readyState = 2;
    es.onerror?.(new Event('error'));
  };
  void (async () => {
    try {
      const res = await fetch(url, { signal: abort.signal });
      if (res.status !== 200 || !res.body) return fail();
      es.readyState = 1;
      es.onopen?.(new Event('open'));
      const parser = createParser({
        onEvent: (m) =>
          listeners
            .get(m.event ?? 'message')
            ?.forEach((l) => l(new MessageEvent(m.event ?? 'message', { data: m.data }))),
      });
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
      fail();
    } catch {
      fail();
    }
  })();
  return es;
}

interface Host {
  server: Server;
  url: string;
  port: number;
  streams: Set<ServerResponse>;
}

/** A stand-in for the web host: a few API methods and the push stream. */
function startHost(port = 0): Promise<Host> {
  const streams = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.url === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': hello\n\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.url === '/api/getSettings') return json(200, { ok: true, value: { echo: body } });
      if (req.url === '/api/setCredentials')
        return json(400, {
          ok: false,
          error: { error: 'invalid_request', message: 'Invalid request to setCredentials' },
        });
      if (req.url === '/api/getStatus') {
        res.writeHead(401, { 'content-type': 'text/plain' });
        return res.end('no session');
      }
      json(404, { ok: false, error: { error: 'not_found', message: 'Unknown method' } });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const p = (server.address() as AddressInfo).port;
      resolve({ server, url: `http://127.0.0.1:${p}`, port: p, streams });
    });
  });
}

function stopHost(h: Host): Promise<void> {
  for (const s of h.streams) s.destroy();
  h.server.closeAllConnections();
  return new Promise((r) => h.server.close(() => r()));
}

const until = (cond: () => boolean, what: string) => waitFor(cond, what);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const host = await startHost();
  cleanups.push(() => stopHost(host));
  const bad: string[] = [];
  const bridge = createHttpBridge({
    base: host.url,
    openEvents: nodeEventSource,
    reopenDelayMs: 50,
    onBadPush: (problem) => bad.push(problem),
  });
  cleanups.push(() => bridge.close());
  const connection: Connection[] = [];
  bridge.onConnection((c) => connection.push(c));
  await until(() => host.streams.size === 1, 'the push stream');
  return { host, bridge, connection, bad };
}

describe('HttpBridge', () => {
  it('posts the input as JSON and answers the value', async () => {
    const { bridge } = await setup();
    const value = (await bridge.api.getSettings()) as unknown as { echo: string };
    expect(value.echo).toBe('null');
  });

  it("rejects with the host's message, and explains an expired session", async () => {
    const { bridge } = await setup();
    await expect(bridge.api.setCredentials({ publicKey: 'a', privateKey: 'b' })).rejects.toThrow(
      'Invalid request to setCredentials',
    );
    await expect(bridge.api.getStatus()).rejects.toThrow(/session has expired/);
  });

  it('delivers named pushes and drops garbled ones', async () => {
    const { host, bridge, bad } = await setup();
    const got: unknown[] = [];
    bridge.on('status', (s) => got.push(s));
    const status = statusFixture({ mode: 'relay' });
    for (const s of host.streams) {
      s.write('event: status\ndata: {not json\n\n');
      s.write(`event: status\ndata: ${JSON.stringify(status)}\n\n`);
    }
    await until(() => got.length > 0, 'the status push');
    expect(got).toEqual([status]);
    expect(bad).toHaveLength(1);
  });

  it('drops a push that does not match the contract and reports it once', async () => {
    const { host, bridge, bad } = await setup();
    const alerts: unknown[] = [];
    const changes: unknown[] = [];
    // two subscribers of each push: the check runs once per push, not once per subscriber
    for (let i = 0; i < 2; i++) {
      bridge.on('alert', (a) => alerts.push(a.title.toUpperCase()));
      bridge.on('changes', (c) => changes.push(c.map((x) => x.kind)));
    }
    const good = {
      id: 7,
      kind: 'released',
      title: 'US NFP 180K',
      body: 'Consensus 150K',
      createdAt: 1_700_000_000_000,
      read: false,
      target: { type: 'eventDate', eventDateId: 'ed1', eventId: 'e1' },
    };
    for (const s of host.streams) {
      s.write(`event: alert\ndata: ${JSON.stringify({ ...good, title: 42 })}\n\n`);
      s.write(
        `event: changes\ndata: ${JSON.stringify([{ kind: 'released', source: 'relay' }])}\n\n`,
      );
      s.write(`event: alert\ndata: ${JSON.stringify(good)}\n\n`);
    }
    await until(() => alerts.length === 2, 'the good alert');
    expect(alerts).toEqual(['US NFP 180K', 'US NFP 180K']);
    expect(changes).toEqual([]);
    expect(bad).toHaveLength(2);
    expect(bad[0]).toMatch(/^dropped a malformed "alert" push: .*expected string.*title/);
    expect(bad[1]).toMatch(/^dropped a malformed "changes" push: .*eventDate/);
  });

  it('goes offline when the host stops and online again when it returns', async () => {
    const { host, bridge, connection } = await setup();
    await stopHost(host);
    await until(() => connection.at(-1) === 'offline', 'offline');
    await expect(bridge.api.getSettings()).rejects.toThrow('not reachable');

    const again = await startHost(host.port);
    cleanups.push(() => stopHost(again));
    await until(() => connection.at(-1) === 'online', 'online again');
    await expect(bridge.api.getSettings()).resolves.toEqual({ echo: 'null' });
  });
});
