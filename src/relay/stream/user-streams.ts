/**
 * The open streams of each user on this node: capped per user across the desk (a place
 * in desk-limits.ts per stream, shared by every node on Redis), and closed within a
 * revocation check (default 250 ms) of `relay users revoke` — on any node, since the
 * revocations are read from the users store.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { DeskLimits } from '../desk/desk-limits.js';
import type { UserStore } from '../users/user-store.js';

export class UserStreams {
  private readonly open = new Map<string, Set<ServerResponse>>();
  private checking = false;
  private unreadable = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly opts: {
      users: Pick<UserStore, 'revokedNames'>;
      limits: DeskLimits;
      maxPerUser: (user: string) => number;
      checkEveryMs: number;
      logger?: Logger;
    },
  ) {
    this.timer = setInterval(() => void this.closeRevoked(), opts.checkEveryMs);
    this.timer.unref();
  }

  /**
   * Remembers an open stream; false (nothing remembered) when the user is at the cap on
   * the desk. Rejects when the shared store is away.
   */
  async track(user: string, res: ServerResponse): Promise<boolean> {
    const lease = await this.opts.limits.acquire('streams', user, this.opts.maxPerUser(user));
    if (!lease) return false;
    if (res.destroyed) {
      lease.release();
      return true; // gone while waiting: nothing to serve, nothing to refuse
    }
    const open = this.open.get(user) ?? new Set();
    open.add(res);
    this.open.set(user, open);
    res.once('close', () => {
      lease.release();
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
