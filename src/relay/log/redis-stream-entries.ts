/**
 * Redis Streams replies read into the relay's shapes: a stream entry as a StoredEvent, and
 * XINFO STREAM as a map. Apart from redis-log.ts so that file is the log's behaviour.
 */
import type Redis from 'ioredis';
import type { StoredEvent } from './event-log.js';
import { STREAM } from '../redis/redis-scripts.js';

export type StreamEntry = [Buffer, Buffer[]];
const EMPTY = Buffer.alloc(0);

/** An entry's fields (written as t, type, body, h), read in one pass over the reply. */
export function toEvent([id, fields]: StreamEntry): StoredEvent {
  let receivedAt = 0;
  let type = '';
  let body: Buffer = EMPTY;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i] as Buffer;
    const value = fields[i + 1] as Buffer;
    if (name.length === 1 && name[0] === 0x74) receivedAt = Number(value.toString('latin1'));
    else if (name.length === 4 && name[0] === 0x74) type = value.toString();
    else if (name.length === 4 && name[0] === 0x62) body = value;
  }
  return { id: id.toString('latin1'), receivedAt, type, body };
}

/** XINFO STREAM's flat reply as a map (null when the stream does not exist yet). */
export async function streamInfo(redis: Redis): Promise<Map<string, unknown> | null> {
  // Asked first rather than read from XINFO's error text: a stream is never deleted once made.
  if ((await redis.exists(STREAM)) === 0) return null;
  const flat = (await redis.call('XINFO', 'STREAM', STREAM)) as unknown[];
  const m = new Map<string, unknown>();
  for (let i = 0; i < flat.length; i += 2) m.set(String(flat[i]), flat[i + 1]);
  return m;
}
