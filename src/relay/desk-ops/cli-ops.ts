/**
 * The desk-operations subcommands (each returns an exit code):
 *   admins add NAME | admins list | admins revoke NAME   [--data DIR] [--redis URL]
 *   status [--url URL | --data DIR]   (admin token in MACROBELL_ADMIN_TOKEN, never argv)
 *   log [--since 2h|ISO] [--until ISO] [--url URL | --data DIR]   (the delivery log, same token)
 *   log --user NAME [--grep TEXT] [--since 1d|ISO] [--until ISO] …   (a trader's prints per desktop)
 *   replay --user NAME --since 2h|ISO [--until ISO] [--url URL | --data DIR]   (re-send a range)
 * The relay asked: --url, else MACROBELL_RELAY_URL, else the URL the relay with that data
 * folder (default relay-data) wrote at start into DIR/relay-url, else http://127.0.0.1:8787.
 */
import type { RedisTarget } from '../redis/redis-client.js';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { RedisAdminStore, SqliteAdminStore, type AdminStore } from './admin/admin-store.js';
import type { AdminSnapshot } from './admin/admin-view.js';
import { z } from 'zod';
import type { DeliveryRow } from './replay/delivery-log.js';
import type { TraderDelivery } from './replay/trader-log.js';
import type { ReplayResult } from './replay/replay.js';
import { withoutControls } from '../../shared/plain-text.js';
import { formatStatus } from './admin/status-text.js';
import { readRelayUrl } from './relay-url-file.js';

export interface OpsCliIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** What the relay answered may hold a trader's text (a title, a webhook's type): one plain line each. */
const plainIo = (io: OpsCliIo): OpsCliIo => ({
  env: io.env,
  out: (line) => io.out(withoutControls(line)),
  err: (line) => io.err(withoutControls(line)),
});

const when = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toISOString());

/** The Redis flags, as `relay users` takes them (the password never on the command line). */
export interface AdminRedisFlags {
  redis?: string;
  'redis-password-file'?: string;
  'redis-ca'?: string;
}

async function openAdmins(data: string | undefined, redis: RedisTarget | undefined) {
  if (!redis) return SqliteAdminStore.open(resolve(data ?? 'relay-data'));
  return RedisAdminStore.open(redis);
}

export async function adminsCommand(
  args: string[],
  io: OpsCliIo,
  /** The checked Redis target of the flags (and MACROBELL_RELAY_REDIS…); none: SQLite. */
  redisTarget: (flags: AdminRedisFlags) => RedisTarget | undefined,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      redis: { type: 'string' },
      'redis-password-file': { type: 'string' },
      'redis-ca': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, name, extra] = positionals;
  const usage = () => {
    io.err('relay: usage: admins add NAME | admins list | admins revoke NAME');
    return 2;
  };
  if (extra !== undefined || !action) return usage();
  if ((action === 'list') !== (name === undefined)) return usage();
  let store: AdminStore | null = null;
  try {
    store = await openAdmins(values.data, redisTarget(values));
    if (action === 'add' && name) {
      const added = await store.add(name);
      io.out(
        `Added admin ${added.name}. Their admin token (shown this once, only a hash is kept):`,
      );
      io.out(added.token);
      return 0;
    }
    if (action === 'list') {
      const list = await store.list();
      if (list.length === 0) io.out('No admins yet: add one with `relay admins add NAME`.');
      for (const a of list)
        io.out(
          `${a.name.padEnd(24)} created ${when(a.createdAt)}${a.revokedAt === null ? '' : `  REVOKED ${when(a.revokedAt)}`}`,
        );
      return 0;
    }
    if (action === 'revoke' && name) {
      if (await store.revoke(name)) {
        io.out(`Revoked admin ${name}: the token no longer opens the desk page.`);
        return 0;
      }
      io.err(`relay: no active admin named "${name}"`);
      return 1;
    }
    return usage();
  } catch (err) {
    io.err(`relay: ${(err as Error).message}`);
    return 1;
  } finally {
    await store?.close();
  }
}

/** An error answer's reason, when it gives one. */
const ERROR_ANSWER = z.object({ message: z.string().optional() });

/** GET (or POST `body` to) an admin route as JSON; the answer, or an exit code after saying why not. */
async function adminGet(
  base: string,
  path: string,
  io: OpsCliIo,
  body?: unknown,
): Promise<unknown> {
  const token = io.env.MACROBELL_ADMIN_TOKEN;
  if (!token) {
    io.err('relay: set MACROBELL_ADMIN_TOKEN to an admin token (relay admins add NAME)');
    return 2;
  }
  try {
    const res = await request(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    if (res.statusCode !== 200) {
      const body = ERROR_ANSWER.safeParse(await res.body.json().catch(() => null));
      const reason = (body.success && body.data.message) || 'no reason given';
      io.err(`relay: ${base} answered ${res.statusCode}: ${reason}`);
      return 1;
    }
    return await res.body.json();
  } catch (err) {
    io.err(`relay: cannot reach ${base}: ${(err as Error).message}`);
    return 1;
  }
}

/** What /admin/log answers (the fields printed). */
const DELIVERY_LOG = z.object({
  events: z.array(
    z.object({
      id: z.string(),
      receivedAt: z.number(),
      type: z.string(),
      appliedBy: z.number(),
      desktops: z.number(),
    }) satisfies z.ZodType<DeliveryRow>,
  ),
  truncated: z.boolean(),
});

/** What /admin/deliveries answers (the fields printed). */
const TRADER_LOG = z.object({
  user: z.string(),
  rows: z.array(
    z.object({
      id: z.string(),
      release: z.string(),
      printedAt: z.number(),
      desktop: z.string(),
      os: z.string(),
      appliedAt: z.number().nullable(),
      exact: z.boolean(),
    }) satisfies z.ZodType<TraderDelivery>,
  ),
  truncated: z.boolean(),
  namesUnavailable: z.string().nullable(),
});

const iso = (ms: number) => new Date(ms).toISOString();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One line per print per desktop: applied when and how late, or not seen. */
function traderLine(r: TraderDelivery): string {
  const where = `${r.desktop} (${r.os})`;
  const head = `${r.release}  printed ${iso(r.printedAt)}  ${where}`;
  if (r.appliedAt === null) return `${head}  not seen`;
  const late = seconds(Math.max(0, r.appliedAt - r.printedAt));
  return r.exact
    ? `${head}  applied ${iso(r.appliedAt)}  ${late} late`
    : `${head}  applied by ${iso(r.appliedAt)}  (at most ${late} late)`;
}

async function traderLogCommand(
  base: string,
  v: { user: string; grep?: string; since?: string; until?: string },
  io: OpsCliIo,
): Promise<number> {
  const q = new URLSearchParams({ user: v.user, since: v.since ?? '1d' });
  if (v.grep !== undefined) q.set('grep', v.grep);
  if (v.until !== undefined) q.set('until', v.until);
  const got = await adminGet(base, `/admin/deliveries?${q}`, io);
  if (typeof got === 'number') return got;
  const parsed = TRADER_LOG.safeParse(got);
  if (!parsed.success) {
    io.err(`relay: unexpected answer to /admin/deliveries: ${parsed.error.issues[0]?.message}`);
    return 1;
  }
  const log = parsed.data;
  if (log.namesUnavailable)
    io.out(`(releases shown by id: their names are unavailable: ${log.namesUnavailable})`);
  const what = v.grep ? ` matching "${v.grep}"` : '';
  if (log.rows.length === 0)
    io.out(`No print${what} in that range for a desktop of ${log.user} the desk knows.`);
  for (const r of log.rows) io.out(traderLine(r));
  if (log.truncated) io.out('(more in the range: narrow it with --since / --until / --grep)');
  return 0;
}

/** The relay to ask: --url, MACROBELL_RELAY_URL, the data folder's relay-url, else :8787. */
const baseUrl = (v: { url?: string; data?: string }, io: OpsCliIo) =>
  (
    v.url ??
    (io.env.MACROBELL_RELAY_URL || undefined) ??
    readRelayUrl(resolve(v.data ?? 'relay-data')) ??
    'http://127.0.0.1:8787'
  ).replace(/\/+$/, '');

export async function logCommand(args: string[], shown: OpsCliIo): Promise<number> {
  const io = plainIo(shown);
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      data: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      user: { type: 'string' },
      grep: { type: 'string' },
    },
    strict: true,
  });
  if (values.user !== undefined)
    return traderLogCommand(baseUrl(values, io), { ...values, user: values.user }, io);
  if (values.grep !== undefined) {
    io.err('relay: --grep needs --user NAME (relay log --user bob --grep NFP)');
    return 2;
  }
  const q = new URLSearchParams({ since: values.since ?? '1h' });
  if (values.until !== undefined) q.set('until', values.until);
  const got = await adminGet(baseUrl(values, io), `/admin/log?${q}`, io);
  if (typeof got === 'number') return got;
  const parsed = DELIVERY_LOG.safeParse(got);
  if (!parsed.success) {
    io.err(`relay: unexpected answer to /admin/log: ${parsed.error.issues[0]?.message}`);
    return 1;
  }
  const log = parsed.data;
  if (log.events.length === 0) io.out('Nothing received in that range.');
  for (const e of log.events)
    io.out(
      `${new Date(e.receivedAt).toISOString()}  ${e.id.padEnd(18)} ${e.type.padEnd(24)} applied by ${e.appliedBy} of ${e.desktops} desktops`,
    );
  if (log.truncated) io.out('(more in the range: narrow it with --since / --until)');
  return 0;
}

export async function statusCommand(args: string[], shown: OpsCliIo): Promise<number> {
  const io = plainIo(shown);
  const { values } = parseArgs({
    args,
    options: { url: { type: 'string' }, data: { type: 'string' } },
    strict: true,
  });
  const got = await adminGet(baseUrl(values, io), '/admin', io);
  if (typeof got === 'number') return got;
  for (const line of formatStatus(got as AdminSnapshot)) io.out(line);
  return 0;
}

export async function replayCommand(args: string[], shown: OpsCliIo): Promise<number> {
  const io = plainIo(shown);
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      data: { type: 'string' },
      user: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
    },
    strict: true,
  });
  if (!values.user || !values.since) {
    io.err(
      'relay: usage: replay --user NAME --since 2h|ISO [--until ISO] [--url URL | --data DIR]',
    );
    return 2;
  }
  const body = { user: values.user, since: values.since, until: values.until };
  const got = await adminGet(baseUrl(values, io), '/admin/replay', io, body);
  if (typeof got === 'number') return got;
  const r = got as ReplayResult;
  const range = `${new Date(r.since).toISOString()} to ${new Date(r.until).toISOString()}`;
  if (r.events === 0) {
    io.out(`Nothing was received from ${range}: nothing to replay to ${r.user}.`);
    return 0;
  }
  io.out(
    `Replayed ${r.events} event${r.events === 1 ? '' : 's'} (${r.firstId} to ${r.lastId}, ${range}) ` +
      `to ${r.desktops} connected desktop${r.desktops === 1 ? '' : 's'} of ${r.user}.`,
  );
  if (r.nodes.answered < r.nodes.expected)
    io.out(
      `Only ${r.nodes.answered} of the ${r.nodes.expected} other nodes answered: desktops on the others may not have it.`,
    );
  if (r.desktops === 0) io.out(`${r.user} has no desktop connected: nothing was sent.`);
  return 0;
}
