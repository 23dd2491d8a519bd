/**
 * Alerts to the desk's chat (a Slack-compatible webhook, JSON `{text}`): a trader who
 * watches a HIGH release and would miss it (no desktop connected, or lagging) within the
 * lead time before it; this node's store down; the shared store found empty or older; webhooks failing to be stored. Each is
 * posted once when it starts and once when it ends (the ledger decides who posts); a
 * release that passes while its trader is still away is counted as a missed window.
 * `check()` runs on a timer; tests call it with their own clock.
 */
import type { Logger } from 'pino';
import type { EventLog } from '../../log/event-log.js';
import { MemoryAlertLedger, type AlertLedger } from './alert-ledger.js';
import type { AdminSnapshot } from '../admin/admin-view.js';
import {
  adoptedCondition,
  alertConditions,
  type AlertKind,
  type Condition,
} from './alert-conditions.js';
import { chatPoster } from './chat-post.js';

export type { AlertKind } from './alert-conditions.js';

export interface DeskAlertsOptions {
  webhookUrl: string | null;
  leadMinutes: number;
  ledger: AlertLedger;
  snapshot: () => Promise<AdminSnapshot>;
  events: EventLog;
  node: () => string;
  now: () => number;
  logger?: Logger;
}

export interface DeskAlertCounters {
  posted: Record<`${AlertKind}:${'alert' | 'recovery'}`, number>;
  missedWindows: number;
  postFailures: number;
  /** Checks run to the end: each one read the desk's presence anew (the live nodes). */
  checks: number;
}

const newCounters = (): DeskAlertCounters => ({
  posted: {
    'would_miss:alert': 0,
    'would_miss:recovery': 0,
    'store_down:alert': 0,
    'store_down:recovery': 0,
    'store_lost:alert': 0,
    'store_lost:recovery': 0,
    'node_silent:alert': 0,
    'node_silent:recovery': 0,
    'ingest_failing:alert': 0,
    'ingest_failing:recovery': 0,
    'durability_unverified:alert': 0,
    'durability_unverified:recovery': 0,
  },
  missedWindows: 0,
  postFailures: 0,
  checks: 0,
});

export function startDeskAlerts(opts: DeskAlertsOptions) {
  const counters = newCounters();
  // This node's own store and ingest alerts are this node's alone, and must be posted even
  // when the shared ledger is the store that is down: they use a ledger in memory.
  const local = new MemoryAlertLedger();
  const ledgerFor = (c: Condition) =>
    c.kind === 'would_miss' ||
    c.kind === 'store_lost' ||
    c.kind === 'node_silent' ||
    c.kind === 'durability_unverified'
      ? opts.ledger
      : local;
  /** Conditions this node saw last time, to know what ended. */
  let seen = new Map<string, Condition>();
  /** The shared ledger's open alerts were taken back (at the first check it could be read). */
  let adopted = false;
  const post = chatPoster(opts.webhookUrl, () => counters.postFailures++, opts.logger);
  const conditions = alertConditions(opts);

  /** The ledger's answer, or null when it cannot be reached (retried on the next check). */
  const ask = (p: Promise<boolean>) =>
    p.catch((err: unknown) => {
      opts.logger?.warn({ err }, 'desk alerts: the shared ledger is unavailable');
      return null;
    });

  /**
   * The desk's open alerts from before this node started, taken as seen: their end is
   * posted once (by the node that closes them) instead of their key staying open for ever,
   * which also kept the same fault from ever being posted again.
   */
  async function adopt(): Promise<void> {
    const keys = await opts.ledger.openKeys().catch((err: unknown) => {
      opts.logger?.warn({ err }, 'desk alerts: the open alerts cannot be read yet');
      return null;
    });
    if (keys === null) return;
    adopted = true;
    for (const key of keys) {
      const c = adoptedCondition(key, opts.node());
      if (c && !seen.has(key)) seen.set(key, c);
    }
  }

  async function check(): Promise<void> {
    if (!adopted) await adopt();
    const now = opts.now();
    const current = new Map((await conditions(seen.values())).map((c) => [c.key, c]));
    for (const c of [...current.values()]) {
      if (seen.has(c.key)) continue;
      const opened = await ask(ledgerFor(c).open(c.key, now));
      if (opened === null) current.delete(c.key);
      else if (opened) {
        counters.posted[`${c.kind}:alert`]++;
        await post(c.text);
      }
    }
    for (const [key, c] of seen) {
      if (current.has(key)) continue;
      const closed = await ask(ledgerFor(c).close(key));
      if (closed === null) current.set(key, c);
      if (!closed) continue;
      if (c.releaseAt !== undefined && c.releaseAt <= now) {
        counters.missedWindows++;
        await post(c.missed ?? c.text);
      } else {
        counters.posted[`${c.kind}:recovery`]++;
        await post(c.recovery);
      }
    }
    seen = current;
    counters.checks++;
  }

  /** The alerts open as this node last saw them (for the page while the store is away). */
  const open = () => [...seen.values()].map((c) => c.text);

  return { check, counters, open };
}
