/**
 * Which desk alerts are open, shared by the nodes so each alert and its recovery is posted
 * once however many nodes see the condition: opening is SET NX, closing is DEL — only the
 * node that wins either one posts. One node: a set in memory.
 */
import type { RedisTarget } from '../../redis/redis-client.js';
import type Redis from 'ioredis';
import { connectSharedRedis } from '../../redis/redis-connect.js';
import { PREFIX } from '../../redis/redis-scripts.js';

export interface AlertLedger {
  /** True for the one caller that opened the alert. */
  open(key: string, at: number): Promise<boolean>;
  /** True for the one caller that closed an open alert. */
  close(key: string): Promise<boolean>;
  openKeys(): Promise<string[]>;
  shutdown(): Promise<void>;
}

export class MemoryAlertLedger implements AlertLedger {
  private readonly keys = new Set<string>();
  open(key: string) {
    const fresh = !this.keys.has(key);
    this.keys.add(key);
    return Promise.resolve(fresh);
  }
  close(key: string) {
    return Promise.resolve(this.keys.delete(key));
  }
  openKeys() {
    return Promise.resolve([...this.keys]);
  }
  shutdown() {
    return Promise.resolve();
  }
}

const OPEN = `${PREFIX}desk-alerts`;

export class RedisAlertLedger implements AlertLedger {
  private constructor(private readonly redis: Redis) {}

  static async open(target: string | RedisTarget): Promise<RedisAlertLedger> {
    return new RedisAlertLedger(await connectSharedRedis(target, "the desk's alerts", {}));
  }

  async open(key: string, at: number) {
    return (await this.redis.hsetnx(OPEN, key, String(at))) === 1;
  }
  async close(key: string) {
    return (await this.redis.hdel(OPEN, key)) === 1;
  }
  openKeys() {
    return this.redis.hkeys(OPEN);
  }
  async shutdown() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
