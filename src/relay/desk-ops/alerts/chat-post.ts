/** Posts `{text}` to the desk's Slack-compatible incoming webhook; a failure is counted, not retried. */
import { request } from 'undici';
import type { Logger } from 'pino';
import { withoutControls } from '../../../shared/plain-text.js';

export function chatPoster(
  webhookUrl: string | null,
  onFailure: () => void,
  logger?: Logger,
): (text: string) => Promise<void> {
  return async (text) => {
    if (!webhookUrl) return;
    try {
      const res = await request(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: withoutControls(text) }),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`the chat webhook answered ${res.statusCode}`);
    } catch (err) {
      onFailure();
      // The URL is a secret (it posts to the channel): only the reason is logged.
      logger?.warn({ reason: (err as Error).message }, 'desk alert could not be posted');
    }
  };
}
