/**
 * `relay rotate-secret`: a new webhook secret, with no delivery lost on the way. In order:
 *   1. check everything it needs before writing anything: the provider keys, the current
 *      secret (environment or file) and that the running nodes accept it, the service's
 *      webhook lists;
 *   2. make the nodes accept the new secret beside the old: DATA/relay-secrets.json becomes
 *      `new,old` (this node), and with --redis its digest goes into the desk's set that every
 *      node reads each second (rotated-secrets.ts), whatever secret their environment holds;
 *   3. wait until the public URL accepts it (hook-probe.ts: each node behind the proxy);
 *   4. register the new URL with each API, then remove the old one. The old secret stays
 *      accepted, so the service's retries of a delivery to the old URL are still stored.
 * A failure before anything is registered puts the file and the set back as they were.
 */
import type Redis from 'ioredis';
import { loadProviderKeys } from '../desk/provider-keys.js';
import { WebhookLimitError } from '../../node/service/errors.js';
import { maskUrl } from '../mask-url.js';
import type { RedisTarget } from '../redis/redis-client.js';
import { connectSharedRedis } from '../redis/redis-connect.js';
import { ROTATED_SECRETS_KEY, secretDigest } from '../ingest/rotated-secrets.js';
import {
  newSecret,
  readSecrets,
  restoreSecretsFile,
  secretsFile,
  secretsFileSnapshot,
  splitSecrets,
  writeWebhookSecret,
} from '../ingest/secrets.js';
import { relayAccepts, waitUntilAccepted } from './hook-probe.js';
import { serviceWebhooks, type ServiceUrls } from './register.js';
import type { DeskCliContext } from './cli-desk.js';

const APIS = ['calendar', 'news'] as const;

/** Where the new secret is accepted, and how to take it back. */
async function acceptNewSecret(
  ctx: DeskCliContext,
  next: string,
  current: string[],
  redis: Redis | null,
): Promise<() => Promise<void>> {
  const snapshot = secretsFileSnapshot(ctx.dataDir);
  writeWebhookSecret(ctx.dataDir, [next, current[0] as string].join(','));
  if (redis) await redis.sadd(ROTATED_SECRETS_KEY, secretDigest(next));
  return async () => {
    restoreSecretsFile(ctx.dataDir, snapshot);
    if (redis) await redis.srem(ROTATED_SECRETS_KEY, secretDigest(next));
  };
}

interface Checked {
  webhooks: ReturnType<typeof serviceWebhooks>;
  current: string[];
  fromFile: boolean;
  listed: Map<string, { id: string; url: string }[]>;
}

/** Everything rotate-secret needs, checked before it writes anything; else the exit code. */
async function checkBeforeWriting(
  ctx: DeskCliContext,
  base: string,
  urls: ServiceUrls,
): Promise<Checked | number> {
  const keys = loadProviderKeys(ctx.dataDir, ctx.env);
  if (!keys) {
    ctx.err('relay: rotate-secret needs the provider keys (environment or `relay keys set`)');
    return 2;
  }
  const shown = readSecrets(ctx.dataDir, ctx.env);
  if (!shown.secret) {
    ctx.err(
      `relay: no webhook secret in MACROBELL_RELAY_SECRET or ${secretsFile(ctx.dataDir)}: run ` +
        "rotate-secret where the relay's secret is (its --data folder, or its service's environment). Nothing was written.",
    );
    return 1;
  }
  const current = splitSecrets(shown.secret.value);
  const accepted = await relayAccepts(base, current[0] as string);
  if (!accepted.ok) {
    ctx.err(
      `relay: ${base}/hooks/<current secret> ${accepted.reason}: this is not the running relay's secret, or it is not running. Nothing was written.`,
    );
    return 1;
  }
  // The service's lists: a wrong service URL or key fails here, before any write.
  const webhooks = serviceWebhooks(urls, keys);
  const listed = new Map<string, { id: string; url: string }[]>();
  for (const api of APIS) {
    try {
      listed.set(api, await webhooks(api).list());
    } catch (err) {
      ctx.err(`relay: ${api}: ${maskUrl((err as Error).message, current)}. Nothing was written.`);
      return 1;
    }
  }
  return { webhooks, current, fromFile: shown.secret.from === secretsFile(ctx.dataDir), listed };
}

/** Registers the new URL with each API, then removes the old: how many APIs took it. */
async function registerInPlace(
  ctx: DeskCliContext,
  checked: Checked,
  base: string,
  next: string,
): Promise<number> {
  const newUrl = `${base}/hooks/${next}`;
  const oldUrls = new Set(checked.current.map((s) => `${base}/hooks/${s}`));
  let registered = 0;
  for (const api of APIS) {
    const hooks = checked.webhooks(api);
    const old = (checked.listed.get(api) ?? []).filter((w) => oldUrls.has(w.url));
    try {
      await hooks.register(newUrl).catch(async (err: unknown) => {
        // Both places taken (one by the old URL): free the old one first, then register.
        if (!(err instanceof WebhookLimitError) || old.length === 0) throw err;
        await hooks.remove(old.shift()?.id as string);
        await hooks.register(newUrl);
      });
      registered++;
      for (const w of old) await hooks.remove(w.id);
      ctx.out(`${api}: now registered ${base}/hooks/<new secret> (the old URL is removed)`);
    } catch (err) {
      ctx.err(`relay: ${api}: ${maskUrl((err as Error).message, [...checked.current, next])}`);
    }
  }
  return registered;
}

export async function rotateSecretCommand(
  ctx: DeskCliContext,
  publicUrl: string,
  urls: ServiceUrls,
  redisTarget?: RedisTarget,
): Promise<number> {
  const base = publicUrl.replace(/\/+$/, '');
  const checked = await checkBeforeWriting(ctx, base, urls);
  if (typeof checked === 'number') return checked;
  const redis = redisTarget
    ? await connectSharedRedis<Redis>(redisTarget, "the desk's store", {})
    : null;
  try {
    const next = newSecret();
    const undo = await acceptNewSecret(ctx, next, checked.current, redis);
    const ready = await waitUntilAccepted(base, next);
    if (!ready.ok) {
      await undo();
      ctx.err(
        `relay: ${base}/hooks/<new secret> ${ready.reason}${redis ? '' : ' (nodes on other machines need --redis)'}. Nothing was registered; the secrets are as they were.`,
      );
      return 1;
    }
    const registered = await registerInPlace(ctx, checked, base, next);
    if (registered === 0) {
      await undo();
      ctx.err('relay: nothing was registered; the secrets are as they were.');
      return 1;
    }
    ctx.out(
      `New webhook secret saved in ${secretsFile(ctx.dataDir)} (mode 0600, as new,old: the old one stays accepted for the service's retries); see it with \`relay secrets show\`.`,
    );
    if (redis || !checked.fromFile)
      ctx.out(
        redis
          ? "Every node on this Redis accepts it now. Nodes that take their secret from the environment keep accepting both: at their next restart set MACROBELL_RELAY_SECRET to the file's new,old value."
          : "The relay takes its secret from MACROBELL_RELAY_SECRET and accepts the new one from this file: at its next restart set MACROBELL_RELAY_SECRET to the file's new,old value.",
      );
    return registered === APIS.length ? 0 : 1;
  } finally {
    await redis?.quit().catch(() => redis.disconnect());
  }
}
