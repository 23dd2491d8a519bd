/**
 * A request on the desk's replay stream is read through a schema: one another version or a
 * hand edit wrote is skipped with one warning naming its entry and fields, and the node
 * goes on to answer the next request (it is never handed to the replay).
 */
import Redis from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RedisReplaySignal,
  type ReplayRequest,
} from '../../../src/relay/desk-ops/replay/replay-signal.js';
import { PREFIX } from '../../../src/relay/redis/redis-scripts.js';
import { startRedis, type TestRedis } from './redis-server.js';
import { waitFor } from '../../support/wait.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

describe('replay requests between nodes', () => {
  it('skips a malformed request with one warning and answers the next', async () => {
    const warnings: { msg: string; err?: { message: string } }[] = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => void warnings.push(JSON.parse(line)) },
    );
    const asking = await RedisReplaySignal.open(redis.url, { waitMs: 10_000 });
    const serving = await RedisReplaySignal.open(redis.url, { logger });
    const raw = new Redis(redis.url);
    try {
      const handled: ReplayRequest[] = [];
      serving.listen(
        () => 'node-b',
        (req) => {
          handled.push(req);
          return Promise.resolve(2);
        },
      );
      await raw.xadd(`${PREFIX}desk-replays`, '*', 'request', JSON.stringify({ id: 5 }));
      const good: ReplayRequest = {
        id: 'r-1',
        user: 'ana',
        after: '10',
        last: '20',
        origin: 'node-a',
      };
      const answers = await asking.broadcast(good, 1);
      expect(answers).toEqual({ answered: 1, expected: 1, desktops: 2 });
      expect(handled).toEqual([good]);
      await waitFor(() => warnings.length > 0, 'the warning');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.msg).toBe('replay requests: skipped a malformed request');
      expect(warnings[0]?.err?.message).toMatch(/^replay request \S+: a wrong or missing id, user/);
    } finally {
      raw.disconnect();
      await asking.close();
      await serving.close();
    }
  });
});
