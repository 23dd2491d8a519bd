/**
 * The open streams of each user on this node: capped per user, and closed within a
 * revocation check (default 250 ms) of `relay users revoke` — on any node, since the
 * revocations are read from the users store.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { UserStore } from './user-store.js';

export class UserStreams {
  private readonly open = new Map<string, Set<ServerResponse>>();
  private checking = false;
  private unreadable = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly opts: {
      users: Pick<UserStore, 'revokedNames'>;
      maxPerUser: (user: string) => number;
      checkEveryMs: number;
      logger?: Logger;
    },
  ) {
    this.timer = setInterval(() => void this.closeRevoked(), opts.checkEveryMs);
    this.timer.unref();
  }

  /** Remembers an open stream; false (nothing remembered) when the user is at the cap. */
  track(user: string, res: ServerResponse): boolean {
    const open = this.open.get(user) ?? new Set();
    if (open.size >= this.opts.maxPerUser(user)) return false;
    open.add(res);
    this.open.set(user, open);
    res.once('close', () => {
      open.delete(res);
      if (open.size === 0 && this.open.get(user) === open) this.open.delete(user);
    });
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async closeRevoked(): Promise<void> {
    if (this.open.size === 0 || this.checking) return;
    this.checking = true;
    try {
      const revoked = await this.opts.users.revokedNames();
      for (const [user, open] of this.open) {
        if (!revoked.has(user)) continue;
        this.opts.logger?.info({ audit: 'streams_closed', user, count: open.size }, 'user revoked');
        for (const res of open) res.destroy();
        this.open.delete(user);
      }
      this.unreadable = false;
    } catch (err) {
      // Once per outage (Redis away), not every check.
      if (!this.unreadable) this.opts.logger?.warn({ err }, 'could not read revocations; retrying');
      this.unreadable = true;
    } finally {
      this.checking = false;
    }
  }
}
