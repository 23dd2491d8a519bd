/**
 * Where the relay cannot read Redis's settings (no CONFIG in its ACL) the fsync promise is
 * the operator's statement (`--redis-durability aof-always`). What the relay can still see
 * is that someone ran `CONFIG SET` since this node started (the count in `INFO
 * commandstats`): the statement may no longer hold, and /healthz and the desk chat say so
 * until the node is restarted (the operator's fresh statement) or Redis restarts (its
 * settings are its config file's again).
 */
import type { Durability } from './redis-durability.js';

export class SettingsWatch {
  private baseline: number | undefined;
  private changedBy = 0;

  /** Takes the latest check; returns the warning when it is new. */
  note(d: Durability): string | null {
    const calls = d.configSetCalls;
    if (calls === undefined) {
      this.baseline = undefined;
      this.changedBy = 0;
      return null;
    }
    if (this.baseline === undefined || calls < this.baseline) {
      // First check, or Redis restarted (its counters start again from its config file).
      this.baseline = calls;
      this.changedBy = 0;
      return null;
    }
    const was = this.changedBy;
    this.changedBy = calls - this.baseline;
    return this.changedBy > 0 && was === 0 ? this.warning() : null;
  }

  warning(): string | null {
    if (this.changedBy === 0) return null;
    return (
      `unverified: Redis's settings were changed at runtime (CONFIG SET ${this.changedBy}× ` +
      'since this node started) and the relay cannot read them; check "appendonly yes" and ' +
      '"appendfsync always" on Redis, then restart this node'
    );
  }
}
