/**
 * `relay nodes forget NAME --redis URL`: a node taken out of the desk for good stops being
 * listed (and shown SILENT) on the admin page and in `relay status`. Only a node that has
 * stopped reporting: a running one would list itself again at its next report.
 */
import type { ParseArgsConfig } from 'node:util';
import { PRESENCE_STALE_MS } from '../desk-ops/presence/presence-store.js';
import { RedisPresenceStore } from '../desk-ops/presence/redis-presence-store.js';
import { fail, parseWith, redisOption } from './cli-flags.js';

const NODES_OPTIONS = {
  redis: { type: 'string' },
  'redis-password-file': { type: 'string' },
  'redis-ca': { type: 'string' },
} satisfies ParseArgsConfig['options'];

export async function nodesCli(
  args: string[],
  io: { out: (l: string) => void; err: (l: string) => void },
  now: () => number = Date.now,
): Promise<number> {
  const { values, positionals } = parseWith(args, NODES_OPTIONS, true);
  if (positionals.length !== 2 || positionals[0] !== 'forget') fail('nodes takes: forget NAME');
  const name = positionals[1] as string;
  const redis = redisOption(values, undefined, (m) => io.err(`relay: ${m}`));
  if (!redis)
    fail('nodes forget needs --redis URL (or MACROBELL_RELAY_REDIS): a SQLite relay is one node');
  const store = await RedisPresenceStore.open(redis);
  try {
    const nodes = await store.nodes();
    const node = nodes.find((n) => n.node === name);
    if (!node) {
      const known = nodes.map((n) => n.node).join(', ') || 'none';
      io.err(`relay: no node named "${name}" on the admin page (nodes: ${known})`);
      return 1;
    }
    const ago = Math.round((now() - node.reportedAt) / 1000);
    if (now() - node.reportedAt <= PRESENCE_STALE_MS) {
      io.err(
        `relay: node ${name} reported ${ago} s ago: it is running. Stop it first, then forget it.`,
      );
      return 1;
    }
    await store.forgetNode(name);
    io.out(`Forgot node ${name} (last report ${ago} s ago): the admin page no longer lists it.`);
    return 0;
  } finally {
    await store.close();
  }
}
