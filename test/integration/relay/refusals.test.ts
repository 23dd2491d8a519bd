/**
 * Refused bodies get their answer, not a connection reset: the relay answers over-limit
 * bodies, wrong secrets and wrong methods at once and drops the rest of the body.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { SECRET, TOKEN, tempDir, waitFor } from './helpers.js';

/**
 * One POST on a fresh connection, as curl sends a large body (Expect: 100-continue, then
 * the body in pieces): the status, or the socket error's code if any came before the close.
 */
function postRaw(
  url: string,
  body: Buffer,
  opts: { chunked?: boolean; method?: string } = {},
): Promise<number | string> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      expect: '100-continue',
    };
    if (opts.chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = String(body.length);
    let answer: number | string = 'no answer';
    const req = httpRequest(
      url,
      { method: opts.method ?? 'POST', headers, agent: false },
      (res) => {
        answer = res.statusCode ?? 0;
        res.resume();
        res.on('error', (err: NodeJS.ErrnoException) => (answer = err.code ?? err.message));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => (answer = err.code ?? err.message));
    req.on('close', () => resolve(answer));
    req.on('continue', () => {
      for (let at = 0; at < body.length; at += 64 * 1024)
        req.write(body.subarray(at, at + 64 * 1024));
      req.end();
    });
  });
}

const big = Buffer.from(JSON.stringify({ type: 'x', pad: 'a'.repeat(2 * 1024 * 1024) }));

describe('refused bodies', () => {
  let relay: RunningRelay;
  beforeAll(async () => {
    relay = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
  });
  afterAll(() => relay?.close());

  it('answers 413 to 20 over-limit bodies in a row, declared or chunked, never a reset', async () => {
    const answers: (number | string)[] = [];
    for (let i = 0; i < 20; i++)
      answers.push(await postRaw(relay.webhookUrl, big, { chunked: i % 2 === 1 }));
    expect(answers).toEqual(Array(20).fill(413));
    expect(await relay.metrics()).toMatch(/^macrobell_relay_rejected_total 20$/m);
  }, 60_000);

  it('answers 404 to a large body on a wrong secret and 405 to a large PUT, never a reset', async () => {
    const answers: (number | string)[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push(await postRaw(`${relay.url}/hooks/wrong-secret`, big));
      answers.push(await postRaw(relay.webhookUrl, big, { method: 'PUT' }));
    }
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 404 : 405)));
  }, 60_000);

  it('refuses paths with backslashes, which URL parsing would read as slashes (/x\\..\\metrics)', async () => {
    const res = await fetch(`${relay.url}/x%5C..%5Cmetrics`);
    expect(res.status).toBe(404);
    await res.body?.cancel();
    const raw = await new Promise<number>((resolve) => {
      httpRequest(`${relay.url}/`, { path: '/x\\..\\metrics', agent: false }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      }).end();
    });
    expect(raw).toBe(400);
  });

  it('answers 404 to targets that URL parsing would read as another host (//x/metrics)', async () => {
    const status = (path: string, method = 'GET') =>
      new Promise<number>((resolve) => {
        httpRequest(`${relay.url}/`, { path, method, agent: false }, (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        }).end();
      });
    expect(await status('/metrics')).toBe(200);
    for (const path of [
      '//x/metrics',
      '//metrics',
      '///metrics',
      'http://x/metrics',
      '//x/healthz',
    ])
      expect([path, await status(path)]).toEqual([path, 404]);
    expect(await status(`//x/hooks/${SECRET}`, 'POST')).toBe(404);
  });

  it('still stores a good webhook on a connection after a refused one', async () => {
    const ok = await postRaw(relay.webhookUrl, Buffer.from('{"type":"after_refusal"}'));
    expect(ok).toBe(204);
  });
});

describe('bodies in flight', () => {
  it('bounds the memory of unfinished bodies across requests: 503 busy past it, then back', async () => {
    const relay = await startRelay({
      dataDir: tempDir(),
      secret: SECRET,
      token: TOKEN,
      maxBodyBytesInFlight: 2_100_000,
    });
    try {
      const inFlight = async () =>
        Number(/^macrobell_relay_body_bytes_in_flight (\d+)$/m.exec(await relay.metrics())?.[1]);
      const json = (size: number) => {
        const head = '{"type":"x","pad":"';
        return Buffer.from(`${head}${'a'.repeat(size - head.length - 2)}"}`);
      };
      // Two slow senders, each 700 kB into a 1 MB body, then stalled.
      const slow = [json(1_000_000), json(1_000_000)].map((body) => {
        let status = 0;
        const req = httpRequest(relay.webhookUrl, {
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
        });
        const done = new Promise<number>((resolve) =>
          req.on('response', (res) => {
            status = res.statusCode ?? 0;
            res.resume();
            res.on('end', () => resolve(status));
          }),
        );
        req.write(body.subarray(0, 700_000));
        return { finish: () => req.end(body.subarray(700_000)), done };
      });
      await waitFor(async () => (await inFlight()) === 1_400_000, 'both bodies held');
      const third = await postRaw(relay.webhookUrl, json(800_000));
      expect(third).toBe(503);
      slow.forEach((s) => s.finish());
      expect(await Promise.all(slow.map((s) => s.done))).toEqual([204, 204]);
      expect(await inFlight()).toBe(0);
      expect(await postRaw(relay.webhookUrl, json(300_000))).toBe(204);
    } finally {
      await relay.close();
    }
  }, 60_000);
});
