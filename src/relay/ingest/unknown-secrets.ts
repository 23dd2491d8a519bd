/**
 * Webhook deliveries refused for an unknown secret: counted (/metrics), and told to the
 * desk's chat once per episode. A service still delivering to a retired URL refuses every
 * print until someone registers the right one, so the first refusal posts at once; the
 * next post waits until refusals have stopped for `quietMs` (the episode is over) and
 * start again. Scanners guessing paths start episodes too: they are rare and worth a look.
 */
import type { Logger } from 'pino';

export interface UnknownSecrets {
  /** Refusals so far (a counter on /metrics). */
  readonly count: number;
  /** One delivery refused for its secret. */
  refused(): void;
}

export function watchUnknownSecrets(opts: {
  node: () => string;
  /** Posts to the desk's chat (chat-post.ts); absent = count and log only. */
  post?: (text: string) => Promise<void>;
  quietMs?: number;
  now?: () => number;
  logger?: Logger;
}): UnknownSecrets {
  const now = opts.now ?? Date.now;
  const quietMs = opts.quietMs ?? 10 * 60_000;
  let count = 0;
  let last = -Infinity;
  return {
    get count() {
      return count;
    },
    refused() {
      count++;
      const t = now();
      const newEpisode = t - last >= quietMs;
      last = t;
      if (!newEpisode) return;
      opts.logger?.warn('webhook refused: unknown secret (the service may hold an old URL)');
      void opts.post?.(
        `:warning: Relay node ${opts.node()} refused a webhook with an unknown secret at ` +
          `${new Date(t).toISOString()}: the service may be delivering to a retired URL. ` +
          'Check `relay register` (it lists the registered URLs) and `macrobell_relay_hooks_unknown_secret_total`.',
      );
    },
  };
}
