/**
 * A dead node reaches the desk's chat: two relay nodes on one real Redis, a manual clock
 * shared by both, a loopback chat receiver. Node b stops (its last report stays in Redis);
 * 30 s on, node a posts "node-b has not reported" once however often it checks, and once
 * node b is back, "reports again" once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { tempDir } from '../relay/helpers.js';
import { startRedis } from '../relay/redis-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('a node that stops reporting', () => {
  it('is posted to the chat once, and its return once', async () => {
    const texts: string[] = [];
    const chat: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        texts.push((JSON.parse(body) as { text: string }).text);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => chat.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => chat.close(r)));
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    let clock = Date.UTC(2026, 0, 5, 12, 0, 0);
    const node = async (name: string): Promise<RunningRelay> => {
      const relay = await startRelay({
        dataDir: tempDir('mb-node-silent-'),
        secret: 'node-silent-secret',
        token: 'node-silent-token',
        nodeName: name,
        now: () => clock,
        redis: { url: redis.url },
        deskAlerts: {
          webhookUrl: `http://127.0.0.1:${(chat.address() as AddressInfo).port}/hook`,
          checkEveryMs: 0,
        },
      });
      cleanups.push(() => relay.close());
      return relay;
    };
    const a = await node('node-a');
    const b = await node('node-b');
    await a.checkDeskAlerts();
    await b.checkDeskAlerts();
    expect(texts).toEqual([]);

    await b.close();
    clock += 31_000;
    for (let i = 0; i < 3; i++) await a.checkDeskAlerts();
    expect(texts).toEqual([
      expect.stringMatching(/^:rotating_light: Relay node node-b has not reported for 31 s/),
    ]);

    const b2 = await node('node-b'); // reports at start
    await a.checkDeskAlerts();
    await b2.checkDeskAlerts();
    await a.checkDeskAlerts();
    expect(texts).toHaveLength(2);
    expect(texts[1]).toBe(':white_check_mark: Relay node node-b reports again.');
  }, 60_000);
});
