/**
 * Webhook deliveries refused for an unknown secret: counted (/metrics), and told to the
 * desk's chat once when an episode starts and once when it ends. A service still
 * delivering to a retired URL refuses every print until someone registers the right one,
 * so the first refusal posts at once; the episode ends when refusals have stopped for
 * `quietMs`, across the desk (the gate: this node's memory, or a key in Redis every node
 * refreshes, so two nodes refusing the same deliveries post one episode, not two). Every
 * node that refused during the episode watches for its end, and the one that claims it
 * first posts it: the end is told even when the node that started the episode is gone.
 * Scanners guessing paths start episodes too: they are rare and worth a look.
 */
import type { Logger } from 'pino';
import { MemoryEpisodeGate, type EpisodeGate } from './episode-gate.js';

export interface UnknownSecrets {
  /** Refusals so far (a counter on /metrics). */
  readonly count: number;
  /** One delivery refused for its secret. */
  refused(): void;
  /** Stops watching for the end of an episode (the relay closes). */
  stop(): void;
}

export function watchUnknownSecrets(opts: {
  node: () => string;
  /** Posts to the desk's chat (chat-post.ts); absent = count and log only. */
  post?: (text: string) => Promise<void>;
  quietMs?: number;
  /** Who starts an episode (default: this node alone). */
  gate?: EpisodeGate;
  now?: () => number;
  logger?: Logger;
}): UnknownSecrets {
  const now = opts.now ?? Date.now;
  const quietMs = opts.quietMs ?? 10 * 60_000;
  const gate = opts.gate ?? new MemoryEpisodeGate(quietMs);
  let count = 0;
  let timer: NodeJS.Timeout | null = null;
  /** The episode this node refused in and watches the end of. */
  let watching: string | null = null;
  let stopped = false;
  const minutes = Math.round(quietMs / 60_000);
  const quiet = minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${quietMs} ms`;

  const postEnd = async (episode: string) => {
    if (!(await gate.claimEnd(episode)) || stopped) return;
    await opts.post?.(
      `:white_check_mark: No webhook with an unknown secret for ${quiet} ` +
        `(relay ${opts.node()}): that episode is over.`,
    );
  };

  const endEpisode = (episode: string) =>
    void postEnd(episode).catch((err: unknown) =>
      opts.logger?.warn({ err }, 'unknown secrets: the end could not be posted'),
    );

  /** Checks, when it may be over, whether `episode` is; then its end is posted once. */
  const watchEnd = (episode: string, inMs: number) => {
    timer = setTimeout(() => {
      timer = null;
      gate.remainingMs(now(), episode).then(
        (left) => {
          if (stopped) return;
          if (left > 0) return watchEnd(episode, left);
          watching = null;
          endEpisode(episode);
        },
        (err: unknown) => {
          opts.logger?.warn({ err }, 'unknown secrets: the episode cannot be checked now');
          if (!stopped) watchEnd(episode, quietMs);
        },
      );
    }, inMs);
    timer.unref?.();
  };

  return {
    get count() {
      return count;
    },
    refused() {
      count++;
      const t = now();
      void gate.refused(t).then(({ started, episode }) => {
        if (stopped) return;
        if (started) {
          opts.logger?.warn('webhook refused: unknown secret (the service may hold an old URL)');
          void opts.post?.(
            `:warning: Relay node ${opts.node()} refused a webhook with an unknown secret at ` +
              `${new Date(t).toISOString()}: the service may be delivering to a retired URL. ` +
              'Check `relay register` (it lists the registered URLs) and `macrobell_relay_hooks_unknown_secret_total`.',
          );
        }
        if (watching === episode) return;
        if (timer) clearTimeout(timer);
        // A new episode means the one watched is over (its key had gone): its end is due.
        if (watching !== null) endEpisode(watching);
        watching = episode;
        watchEnd(episode, quietMs);
      });
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
