/**
 * The relay's desk subcommands (argv after the subcommand name; each returns an exit code):
 *   users add NAME | users list | users revoke NAME      (the relay may be running; with
 *     --redis the users are the ones every node on that Redis shares)
 *   keys set        (provider keys from the environment or stdin into DATA, mode 0600)
 *   secrets show    (the webhook secret and legacy token, on request only)
 *   (rotate-secret: rotate-secret.ts)
 *   store accept-loss (clears the recorded loss of the desk's Redis data: redis-generation.ts)
 */
import { createInterface } from 'node:readline';
import { loadProviderKeys, saveProviderKeys } from '../desk/provider-keys.js';
import { readSecrets, secretsFile } from '../ingest/secrets.js';
import type { UserStore } from '../users/user-store.js';
import type { RedisTarget } from '../redis/redis-client.js';
import { connectSharedRedis } from '../redis/redis-connect.js';
import { acceptStoreLoss } from '../log/redis-generation.js';

export interface DeskCliContext {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

const when = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toISOString());

/** `relay users …` on the desk's user store (SQLite in DATA, or Redis shared by the nodes). */
export async function usersCommand(
  ctx: DeskCliContext,
  store: UserStore,
  action: string,
  name?: string,
): Promise<number> {
  try {
    if (action === 'add' && name) {
      const added = await store.add(name);
      ctx.out(
        `Added user ${added.name}. Their personal relay token (shown this once, only a hash is kept):`,
      );
      ctx.out(added.token);
      return 0;
    }
    if (action === 'list' && !name) {
      const list = await store.list();
      if (list.length === 0) ctx.out('No users yet: add one with `relay users add NAME`.');
      for (const u of list)
        ctx.out(
          `${u.name.padEnd(24)} created ${when(u.createdAt)}  last seen ${when(u.lastSeenAt)}${u.revokedAt === null ? '' : `  REVOKED ${when(u.revokedAt)}`}`,
        );
      return 0;
    }
    if (action === 'revoke' && name) {
      if (!(await store.revoke(name))) {
        ctx.err(`relay: no active user named "${name}"`);
        return 1;
      }
      const where =
        store.backend === 'redis' ? 'every relay node on this Redis' : 'a running relay';
      ctx.out(
        `Revoked ${name}: ${where} refuses the token and closes their streams within a second.`,
      );
      return 0;
    }
    ctx.err('relay: usage: users add NAME | users list | users revoke NAME');
    return 2;
  } catch (err) {
    ctx.err(`relay: ${(err as Error).message}`);
    return 1;
  } finally {
    await store.close();
  }
}

async function readStdinLines(count: number): Promise<string[]> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines: string[] = [];
  for await (const line of rl) {
    lines.push(line.trim());
    if (lines.length === count) break;
  }
  rl.close();
  return lines;
}

export async function keysSetCommand(ctx: DeskCliContext): Promise<number> {
  let keys = loadProviderKeys('/nonexistent-keys-dir', ctx.env);
  if (!keys) {
    if (process.stdin.isTTY) ctx.out('Paste the public key, then the private key (one per line):');
    const [publicKey, privateKey] = await readStdinLines(2);
    if (!publicKey || !privateKey) {
      ctx.err(
        'relay: give the public and private key on two lines of stdin (or in MACROBELL_PUBLIC_KEY / MACROBELL_PRIVATE_KEY)',
      );
      return 2;
    }
    keys = { publicKey, privateKey };
  }
  const file = saveProviderKeys(ctx.dataDir, keys);
  ctx.out(
    `Saved the provider keys to ${file} (mode 0600). A running relay picks them up within a second for the read gateway (/service/…) and the calendar feeds (and POST /token, when started with --issue-service-tokens).`,
  );
  return 0;
}

/** Shows the secrets and where each comes from; never makes or writes one. */
export function secretsShowCommand(ctx: DeskCliContext): number {
  const s = readSecrets(ctx.dataDir, ctx.env);
  if (!s.secret || !s.token) {
    const missing = [s.secret ? '' : 'webhook path secret', s.token ? '' : 'desktop token']
      .filter(Boolean)
      .join(' and ');
    ctx.err(
      `relay: no ${missing} in ${secretsFile(ctx.dataDir)} or the environment ` +
        '(MACROBELL_RELAY_SECRET, MACROBELL_RELAY_TOKEN). If the relay takes its secrets from ' +
        "its service's environment, they are there (the systemd unit: `sudo cat " +
        "/etc/macrobell-relay.env`); else check --data names the relay's data folder (a relay " +
        'started without them writes this file on its first start). Nothing was written.',
    );
    return 1;
  }
  ctx.out(`webhook path secret: ${s.secret.value}   (from ${s.secret.from})`);
  ctx.out(`desktop token:       ${s.token.value}   (from ${s.token.from})`);
  return 0;
}

/** `relay store accept-loss --redis URL`: the desk is restored (or accepted as it is). */
export async function storeAcceptLossCommand(
  ctx: DeskCliContext,
  target: RedisTarget,
): Promise<number> {
  const redis = await connectSharedRedis(target, "the desk's store", {});
  try {
    if (await acceptStoreLoss(redis))
      ctx.out(
        'The store loss is accepted: every node reports the store as ok again within 5 s (/healthz).',
      );
    else ctx.out('No store loss is recorded: nothing to accept.');
    return 0;
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
