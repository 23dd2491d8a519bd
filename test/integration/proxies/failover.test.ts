/**
 * The shipped proxy configs in front of two relay nodes on one Redis: deploy/nginx.conf and
 * deploy/Caddyfile, only their ports, certificate and log folder templated. Webhooks go in
 * through the proxy while each node in turn is killed with SIGKILL and started again, and a
 * standard EventSource client (event-source.ts: a non-200 answer closes it for good, a
 * broken stream is resumed with Last-Event-ID) reads through the same proxy. Every
 * acknowledged webhook reaches it exactly once, and it never fails for good.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { exited, spawnRelay, tempDir, waitFor, type RelayProcess } from '../relay/helpers.js';
import { startRedis } from '../relay/redis-server.js';
import { StandardEventSource } from './event-source.js';
import { freePort, selfSigned, shippedCaddy, shippedNginx, stablePort } from './proxy-setup.js';

const SECRET = 'failoverHookSecret0123456789';
const TOKEN = 'failover-desktop-token';
const WEBHOOKS = 240;
const cleanups: (() => Promise<unknown>)[] = [];
// Each cleanup bounded, so one that hangs never leaves the nodes and Redis running.
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse())
    await Promise.race([c().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
}, 120_000);

/** A relay node as a process on a fixed port, so it can be killed and started again there. */
async function node(port: number, redisUrl: string) {
  const data = tempDir('mb-failover-node-');
  const start = () =>
    spawnRelay(['--port', String(port), '--data', data, '--redis', redisUrl], {
      MACROBELL_RELAY_SECRET: SECRET,
      MACROBELL_RELAY_TOKEN: TOKEN,
    });
  const n = { proc: await start(), port };
  cleanups.push(async () => {
    n.proc.child.kill('SIGKILL');
    await exited(n.proc.child);
  });
  return {
    port,
    async kill() {
      n.proc.child.kill('SIGKILL');
      await exited(n.proc.child);
    },
    async restart() {
      n.proc = (await start()) as RelayProcess;
    },
  };
}

describe.each([
  ['deploy/nginx.conf', shippedNginx],
  ['deploy/Caddyfile', shippedCaddy],
])('%s in front of two relay nodes', (_name, proxy) => {
  it('a standard EventSource gets every acknowledged webhook once while each node is killed and restarted', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const [pa, pb] = [await stablePort(), await stablePort()];
    const port = await freePort();
    const nodes = [await node(pa, redis.url), await node(pb, redis.url)] as const;
    const dir = tempDir('mb-failover-proxy-');
    const child = await proxy(dir, port, [pa, pb], selfSigned(dir));
    cleanups.push(async () => {
      child.kill('SIGTERM');
      // Caddy waits for open streams to end on SIGTERM: bounded, then SIGKILL.
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited(child);
      clearTimeout(timer);
    });
    const agent = new Agent({
      connect: {
        ca: readFileSync(join(dir, 'cert.pem')),
        servername: 'relay.test',
        rejectUnauthorized: false,
      },
    });
    cleanups.push(() => agent.close());
    const base = `https://127.0.0.1:${port}`;
    const host = 'relay.test';
    await waitFor(async () => {
      const r = await request(`${base}/healthz`, { headers: { host }, dispatcher: agent }).catch(
        () => null,
      );
      await r?.body.dump();
      return r?.statusCode === 200;
    }, 'the proxy to answer');

    const logTail = () =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.log'))
        .map((f) => readFileSync(join(dir, f), 'utf8').split('\n').slice(-8).join('\n'))
        .join('\n');
    const es = new StandardEventSource(
      `${base}/events`,
      { host, authorization: `Bearer ${TOKEN}` },
      agent,
    );
    cleanups.push(async () => es.close());
    await waitFor(() => es.readyState === StandardEventSource.OPEN, 'the stream to open');

    /** As the service does: retried until acknowledged (the relay stores a body once). */
    const send = async (n: number) => {
      let last = '';
      for (let attempt = 0; attempt < 50; attempt++) {
        const r = await request(`${base}/hooks/${SECRET}`, {
          method: 'POST',
          headers: { host, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'failover_probe', n }),
          dispatcher: agent,
        }).catch(() => null);
        last = r ? `${r.statusCode} ${await r.body.text()}` : 'no answer';
        if (r?.statusCode === 204) return attempt;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`webhook ${n} was never acknowledged (last: ${last}): ${logTail()}`);
    };
    const faults: Partial<Record<number, () => Promise<void>>> = {
      40: () => nodes[0].kill(),
      88: () => nodes[0].restart(),
      132: () => nodes[1].kill(),
      180: () => nodes[1].restart(),
    };
    let retried = 0;
    let faulted = 0;
    for (let n = 0; n < WEBHOOKS; n += 4) {
      const fault = faults[n];
      if (fault) faulted++;
      await fault?.();
      const attempts = await Promise.all([n, n + 1, n + 2, n + 3].map(send));
      retried += attempts.reduce((s, x) => s + x, 0);
    }

    expect(faulted).toBe(4);
    const seen = () =>
      es.events
        .filter((e) => e.type === 'notification')
        .map((e) => (JSON.parse(e.data) as { n: number }).n);
    await waitFor(
      () => seen().length >= WEBHOOKS || es.failure !== null,
      'every webhook at the client',
      60_000,
    );
    expect(es.failure, logTail()).toBeNull();
    expect(es.readyState).not.toBe(StandardEventSource.CLOSED);
    expect(es.events.filter((e) => e.type === 'reset')).toEqual([]);
    const got = seen();
    expect(got).toHaveLength(WEBHOOKS); // none duplicated
    expect([...got].sort((x, y) => x - y)).toEqual(Array.from({ length: WEBHOOKS }, (_, i) => i)); // none lost
    // The stream's node was killed at least once: the client resumed through the proxy.
    expect(es.opened).toBeGreaterThanOrEqual(2);
    // Few webhooks needed the sender's retry: the proxy handed them to the live node.
    expect(retried).toBeLessThan(WEBHOOKS / 4);
  }, 180_000);
});
