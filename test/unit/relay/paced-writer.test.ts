/**
 * Issue #44: one trader's gateway answers are written at a bounded pace, so re-reading a
 * 6.9 MB window 300 times (the read bucket's burst) cannot make the relay push gigabytes
 * in seconds while the desk's webhooks wait. A real server on loopback writes the bodies;
 * the pace runs on a clock that only the writer's own waits move: the pauses are counted,
 * not timed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BURST_BYTES,
  BYTES_PER_SECOND,
  pacedWriter,
} from '../../../src/relay/gateway/paced-writer.js';

const PIECE = 256 * 1024;
let clock = 0;
const waits: number[] = [];
const writer = pacedWriter(
  () => clock,
  async (ms) => {
    waits.push(ms);
    clock += ms;
  },
);
/** What each trader is sent, by the path's name: `/<user>/<bytes>`. */
const bodyOf = (bytes: number) => Buffer.alloc(bytes, 'x');
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const [, user = '', bytes = '0'] = (req.url ?? '').split('/');
    res.writeHead(200, { 'content-length': bytes });
    void writer.write(user, res, [bodyOf(Number(bytes))]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((r) => server.close(r)));

async function read(user: string, bytes: number) {
  const before = { paused: writer.stats.paused, waits: waits.length };
  const res = await request(`${url}/${user}/${bytes}`);
  const body = Buffer.from(await res.body.arrayBuffer());
  return {
    whole: body.equals(bodyOf(bytes)),
    paused: writer.stats.paused - before.paused,
    waitedMs: waits.slice(before.waits).reduce((a, b) => a + b, 0),
  };
}

describe("a trader's answers, paced", () => {
  it('come at once within the burst, then at the pace, whole', async () => {
    // An app's start: a hundred answers of ~0.1 MB, never paused.
    for (let i = 0; i < 100; i++) expect(await read('alice', 100_000)).toMatchObject({ paused: 0 });
    // Past the burst: each further piece waits for its bytes at the pace.
    const over = 2 * 1024 * 1024;
    const big = await read('mallory', BURST_BYTES + over);
    expect(big.whole).toBe(true);
    expect(big.paused).toBe(over / PIECE);
    expect(big.waitedMs).toBeCloseTo((over * 1000) / BYTES_PER_SECOND, 6);
    // Right after, the next read pays from its first piece; a colleague is not slowed.
    const again = await read('mallory', 1024 * 1024);
    expect([again.whole, again.paused]).toEqual([true, (1024 * 1024) / PIECE]);
    expect(await read('bob', 1024 * 1024)).toEqual({ whole: true, paused: 0, waitedMs: 0 });
  });
});
